import { readFileSync } from 'node:fs';
import { errorCatalogue, errorCodes } from '#shared/model/error-catalogue.ts';
import { openApiDocument } from '#shared/openapi/document.ts';
import { documentText, publishedDocumentPath } from '#shared/openapi/published-document.ts';
import { operations } from '#shared/routes.ts';

// The document is generated; these check what generation must always give, whatever the rows say.

const document = openApiDocument() as unknown as {
  openapi: string;
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown> & { servers: { url: string }[] }>;
  components: Record<string, Record<string, unknown>>;
  'x-unmatched-requests': Record<string, Record<string, { $ref: string }>>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with both servers and the Bearer scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers.map((server) => server.url)).toEqual(['{base_url}', '{backend_url}']);
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it('has exactly the operations of the route table, each on its group server', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => method in item).map((method) => ({
        operationId: (item[method] as { operationId: string }).operationId,
        method: method.toUpperCase(),
        path,
        server: item.servers[0]?.url,
      })),
    );
    const expected = operations().map((route) => ({
      operationId: route.operationId,
      method: route.method,
      path: route.path,
      server: route.api === 'platform' ? '{base_url}' : '{backend_url}',
    }));
    const byId = (a: { operationId: string }, b: { operationId: string }) =>
      a.operationId.localeCompare(b.operationId);
    expect(documented.sort(byId)).toEqual(expected.sort(byId));
  });

  it('lists the unmatched answers of both servers', () => {
    const statuses = (server: string) => Object.keys(document['x-unmatched-requests'][server] ?? {});
    expect(statuses('{base_url}')).toEqual(['401', '404', '405', '429', '500']);
    expect(statuses('{backend_url}')).toEqual(['404', '405', '500']);
  });

  it('uses every component it declares, references inside extensions included', () => {
    // Redocly's no-unused-components is off (it does not follow $refs in extensions): this is the check.
    const text = JSON.stringify(document);
    const unused = Object.entries(document.components)
      .filter(([kind]) => kind !== 'securitySchemes')
      .flatMap(([kind, components]) => Object.keys(components).map((name) => `#/components/${kind}/${name}`))
      .filter((pointer) => !text.includes(`"${pointer}"`));
    expect(unused).toEqual([]);
  });

  it('tabulates every code of the error catalogue with its status', () => {
    for (const code of errorCodes) {
      expect(document.info.description).toContain(`| \`${code}\` | ${errorCatalogue[code].status} |`);
    }
  });

  it('is built once', () => {
    expect(openApiDocument()).toBe(openApiDocument());
  });
});

describe('the published document (shared/openapi/openapi.json)', () => {
  // What the docs function serves and clients generate code from: when this fails, the route table
  // or a schema changed without it. `npm run openapi` writes it again; commit it with the change.
  const published = readFileSync(publishedDocumentPath(), 'utf8');

  it('is the document the route table and the schemas generate (else: `npm run openapi`, and commit it)', () => {
    expect(JSON.parse(published)).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('is written as `npm run openapi` writes it', () => {
    // Same content, other formatting (an editor's reformat): the diff above would be empty.
    if (published !== documentText(openApiDocument())) {
      throw new Error('shared/openapi/openapi.json is not formatted as `npm run openapi` writes it: run it');
    }
  });
});
