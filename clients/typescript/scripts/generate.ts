import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { groupOfTag, methodName } from './method-names.ts';
import { replyShape } from './reply-shape.ts';
import { versionModule } from './version-module.ts';

export { methodName };

// `npm run clients:generate` (also run by `npm run openapi`): the SDK's two generated files, from
// the published document (shared/openapi/openapi.json), committed like the document itself:
//
// - src/generated/openapi.ts: the types, by openapi-typescript (`paths`, `components`, `operations`);
// - src/generated/operations.ts: the operation table the client is built from at run time (method,
//   path, server, path parameters, query, body, Idempotency-Key, key, list and its items key, kind
//   of reply) and the typed interface of every resource group and method.
//
// A route that lands in the document gets its method by rerunning this; a unit test fails while the
// committed files differ from what the document generates, and another names any operationId
// without a method. How groups and methods are named: scripts/method-names.ts.

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const DOCUMENT_PATH = join(ROOT, 'shared', 'openapi', 'openapi.json');
const SDK = join(import.meta.dirname, '..');
export const TYPES_FILE = join(SDK, 'src', 'generated', 'openapi.ts');
export const OPERATIONS_FILE = join(SDK, 'src', 'generated', 'operations.ts');
export const VERSION_FILE = join(SDK, 'src', 'generated', 'version.ts');

const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
/**
 * The query parameter that names the team a request acts in. The client sends it from its own
 * `teamId` (or the call's options), so it is left out of every method's query argument.
 */
const TEAM_QUERY = 'teamId';
/** One row of the runtime table (see src/generated/operations.ts for the field meanings). */
export interface OperationRow {
  operationId: string;
  group: string;
  name: string;
  method: string;
  path: string;
  server: 'base' | 'backend';
  pathParams: string[];
  query: boolean;
  /** Takes `?teamId=`: the client's team (or the call's) is sent, never a query field of the method. */
  team: boolean;
  body: 'required' | 'optional' | undefined;
  idempotencyKey: boolean;
  auth: boolean;
  status: number;
  reply: 'json' | 'text' | 'none';
  items: string | undefined;
  summary: string;
  /** What a JSON reply's body is, for the method's doc comment (scripts/reply-shape.ts). */
  answers?: string;
}

interface Parameter {
  in: string;
  name: string;
}
interface MediaTypes {
  content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }>;
}
interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: MediaTypes & { required?: boolean };
  responses: Record<string, MediaTypes | { $ref: string }>;
  security?: unknown[];
}
type Document = Omit<OpenAPI3, 'paths' | 'webhooks'> & {
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
  webhooks?: Record<string, { post?: Operation }>;
};

/** Follows a local `$ref` (`#/components/...`). */
function resolve<T>(document: Document, value: T | { $ref: string }): T {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value;
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
  return resolve(document, target as T | { $ref: string });
}

/** Every operation of the document as a row of the table, in the document's order. */
export function operationRows(document: Document): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((parameter) =>
        resolve<Parameter>(document, parameter),
      );
      const tag = operation.tags?.[0];
      if (!tag) throw new Error(`${operation.operationId} has no tag: the SDK groups operations by tag`);
      const group = groupOfTag(tag);
      const [status, response] =
        Object.entries(operation.responses).find(([code]) => /^2\d\d$/.test(code)) ?? [];
      if (!status || !response) throw new Error(`${operation.operationId} has no 2xx response`);
      const content = resolve(document, response).content ?? {};
      const types = Object.keys(content);
      const json = content['application/json']?.schema;
      const reply = json ? 'json' : types.length > 0 ? 'text' : 'none';
      const server =
        (item.servers?.[0]?.url ?? document.servers?.[0]?.url) === '{backend_url}' ? 'backend' : 'base';
      const inQuery = parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      const query = inQuery.filter((name) => name !== TEAM_QUERY);
      rows.push({
        operationId: operation.operationId,
        group,
        name: methodName(operation.operationId, group),
        method: method.toUpperCase(),
        path,
        server,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ''),
        query: query.length > 0,
        team: inQuery.includes(TEAM_QUERY),
        body: operation.requestBody ? (operation.requestBody.required ? 'required' : 'optional') : undefined,
        idempotencyKey: parameters.some(
          (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
        ),
        auth: (operation.security ?? document.security ?? []).length > 0,
        status: Number(status),
        reply,
        items: method === 'get' && query.includes('cursor') ? itemsKey(document, operation, json) : undefined,
        summary: operation.summary ?? '',
        answers: replyShape(json, (node) => resolve(document, node)),
      });
    }
  }
  const seen = new Map<string, string>();
  for (const row of rows) {
    const key = `${row.group}.${row.name}`;
    const other = seen.get(key);
    if (other) {
      throw new Error(
        `${other} and ${row.operationId} would both be client.${key}(): name one in METHOD_OF_OPERATION (clients/typescript/scripts/generate.ts)`,
      );
    }
    seen.set(key, row.operationId);
  }
  return rows;
}

/** A paginated list's items key: the one array beside `nextCursor` in its 200 body. */
function itemsKey(document: Document, operation: Operation, schema: unknown): string {
  const body = resolve(document, (schema ?? {}) as { properties?: Record<string, { type?: string }> });
  const properties = Object.entries(body.properties ?? {});
  const arrays = properties.filter(([, value]) => resolve(document, value).type === 'array');
  if (!('nextCursor' in (body.properties ?? {})) || arrays.length !== 1 || !arrays[0]) {
    throw new Error(
      `${operation.operationId} takes a cursor but its 200 body is not {<items>: [...], nextCursor}`,
    );
  }
  return arrays[0][0];
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function runtimeRow(row: OperationRow): string {
  const fields = [
    `id: ${quote(row.operationId)}`,
    `group: ${quote(row.group)}`,
    `name: ${quote(row.name)}`,
    `method: ${quote(row.method)}`,
    `path: ${quote(row.path)}`,
  ];
  if (row.server === 'backend') fields.push('backend: 1');
  if (row.pathParams.length > 0) fields.push(`params: [${row.pathParams.map(quote).join(', ')}]`);
  if (row.query) fields.push('query: 1');
  if (row.team) fields.push('team: 1');
  if (row.body) fields.push('body: 1');
  if (row.idempotencyKey) fields.push('idempotencyKey: 1');
  if (row.auth) fields.push('auth: 1');
  if (row.reply !== 'json') fields.push(`reply: ${quote(row.reply)}`);
  if (row.items) fields.push(`items: ${quote(row.items)}`);
  return `  { ${fields.join(', ')} },`;
}

function signature(row: OperationRow): string {
  const id = quote(row.operationId);
  const args = row.pathParams.map((name) => `${name}: string`);
  if (row.body) args.push(`body${row.body === 'optional' ? '?' : ''}: Body<${id}>`);
  if (row.query) args.push(`query?: Query<${id}>`);
  args.push(`options?: ${row.team ? 'TeamRequestOptions' : 'RequestOptions'}`);
  const result = row.items
    ? `List<JsonReply<${id}, ${row.status}>, ${quote(row.items)}>`
    : row.reply === 'json'
      ? `Promise<JsonReply<${id}, ${row.status}>>`
      : row.reply === 'text'
        ? 'Promise<string>'
        : 'Promise<void>';
  const server = row.server === 'backend' ? '{backend_url}' : '{base_url}';
  const summary = row.summary ? `${row.summary.replace(/\*\//g, '*\\/')}: ` : '';
  return [
    `    /** ${summary}\`${row.method} ${server}${row.path}\` (${row.operationId})${row.answers ? `; answers ${row.answers}` : ''} */`,
    `    ${row.name}(${args.join(', ')}): ${result};`,
  ].join('\n');
}

/** The component schema of each webhook delivery's body, in the document's order. */
export function webhookEventSchemas(document: Document): string[] {
  return Object.entries(document.webhooks ?? {}).map(([type, item]) => {
    const ref = item.post?.requestBody?.content?.['application/json']?.schema?.$ref ?? '';
    const name = /^#\/components\/schemas\/(\w+)$/.exec(ref)?.[1];
    if (!name) throw new Error(`webhooks.${type}: its body must be a $ref to a component schema`);
    return name;
  });
}

/** The text of src/generated/operations.ts. */
export function operationsModule(rows: OperationRow[], events: string[] = []): string {
  const groups = [...new Set(rows.map((row) => row.group))];
  return [
    '// Generated by `npm run clients:generate` from shared/openapi/openapi.json: do not edit.',
    '// The client builds one method per row (client.<group>.<name>); the interface types them.',
    "import type { components } from './openapi.ts';",
    "import type { Body, JsonReply, List, Query, RequestOptions, TeamRequestOptions } from '../types.ts';",
    '',
    "/** The body of a webhook delivery, one member per entry of the document's `webhooks`; `type` tells which. */",
    `export type WebhookEvent =${events.length === 0 ? ' never;' : ''}`,
    ...events.map(
      (name, i) => `  | components['schemas'][${quote(name)}]${i === events.length - 1 ? ';' : ''}`,
    ),
    '',
    'export const operationTable = [',
    ...rows.map(runtimeRow),
    '] as const satisfies readonly OperationRow[];',
    '',
    '/** One operation: where it goes and what it takes (flags are 1 when set). */',
    'export interface OperationRow {',
    '  id: string;',
    '  group: string;',
    '  name: string;',
    '  method: string;',
    '  path: string;',
    '  /** On {backend_url} rather than {base_url}. */',
    '  backend?: 1;',
    '  /** The path parameters, in the order the method takes them. */',
    '  params?: readonly string[];',
    '  query?: 1;',
    "  /** Acts in a team named by `?teamId=`: the call's `teamId` option, else the client's. */",
    '  team?: 1;',
    '  body?: 1;',
    '  /** Takes an Idempotency-Key (a POST that may then be retried). */',
    '  idempotencyKey?: 1;',
    '  /** Sends the API key. */',
    '  auth?: 1;',
    "  /** The success body: JSON unless 'text' or 'none'. */",
    "  reply?: 'text' | 'none';",
    '  /** A paginated list: the key of its items beside `nextCursor`. */',
    '  items?: string;',
    '}',
    '',
    '/** Every resource group of the client and its methods. */',
    'export interface Groups {',
    ...groups.flatMap((group) => [
      `  ${group}: {`,
      rows
        .filter((row) => row.group === group)
        .map(signature)
        .join('\n'),
      '  };',
    ]),
    '}',
    '',
  ].join('\n');
}

/** The generated files from a document: path → text. */
export async function generate(document: Document): Promise<Record<string, string>> {
  const types = astToString(await openapiTS(document as OpenAPI3, { defaultNonNullable: false }));
  return {
    [TYPES_FILE]: `${COMMENT_HEADER.replace('openapi-typescript.', 'openapi-typescript (npm run clients:generate).')}${types}`,
    [OPERATIONS_FILE]: operationsModule(operationRows(document), webhookEventSchemas(document)),
    [VERSION_FILE]: versionModule(),
  };
}

export const readDocument = (path = DOCUMENT_PATH): Document =>
  JSON.parse(readFileSync(path, 'utf8')) as Document;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, text] of Object.entries(await generate(readDocument()))) {
    writeFileSync(file, text);
    console.log(`Wrote ${relative(process.cwd(), file)}`);
  }
}
