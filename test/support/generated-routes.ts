import { join } from 'node:path';
import type { EndpointRoute, Route } from '#shared/routes.ts';

// Route rows that exist only in the tests, to measure what the stack pays for growth. They look like
// the table's own rows (keyed, a table read, one handler each) and share one entry file, which the
// synthesis never bundles.

export const GENERATED_ROUTE_ENTRY = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'generated-route-handler.ts',
);

/** Where the stack finds a generated handler's entry; the table's own handlers keep theirs. */
export const generatedEntry = (handler: string): string | undefined =>
  handler.startsWith('gen-') ? GENERATED_ROUTE_ENTRY : undefined;

function row(method: EndpointRoute['method'], path: string, handler: string): EndpointRoute {
  return {
    api: 'platform',
    method,
    path,
    handler,
    access: 'apiKey',
    tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], projects: ['GetItem'] },
    operationId: handler.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()),
    tag: 'Generated',
    summary: `${method} ${path}`,
    replies: { 200: 'Project' },
  };
}

/**
 * `count` rows the way an API grows: a quarter as sub-resources of existing paths (each a new segment
 * under `/projects/{id}`, with GET and POST), the rest as new families of five (`GET` and `POST
 * /genN`, `GET`, `PATCH` and `DELETE /genN/{id}`: two new segments for five routes).
 */
export function generatedRoutes(count: number): Route[] {
  const rows: Route[] = [];
  const nested = Math.floor(count / 4);
  for (let index = 0; rows.length < nested; index += 1) {
    const path = `/projects/{id}/gen${index}`;
    rows.push(row('GET', path, `gen-sub${index}-list`));
    if (rows.length < nested) rows.push(row('POST', path, `gen-sub${index}-create`));
  }
  const verbs = [
    ['GET', '', 'list'],
    ['POST', '', 'create'],
    ['GET', '/{id}', 'get'],
    ['PATCH', '/{id}', 'update'],
    ['DELETE', '/{id}', 'delete'],
  ] as const;
  for (let family = 0; rows.length < count; family += 1) {
    for (const [method, suffix, verb] of verbs) {
      if (rows.length < count) rows.push(row(method, `/gen${family}${suffix}`, `gen-${family}-${verb}`));
    }
  }
  return rows;
}

/** `count` sub-resources of a project, one route each: `GET /projects/{id}/more<N>`, the way one family grows. */
export function generatedSubResources(count: number): Route[] {
  return Array.from({ length: count }, (_, index) =>
    row('GET', `/projects/{id}/more${index}`, `gen-more${index}-get`),
  );
}
