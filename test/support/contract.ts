import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { publishedDocument } from '#shared/openapi/published-document.ts';
import { stageNames } from '#shared/routes.ts';

// Every answer the integration suites receive is checked against the OpenAPI document the docs
// function serves (test/support/http.ts `call` does it for each request): the status must be one the
// operation documents (or, for a request no operation serves, one the server's unmatched answers
// list), every required header must be there and match its schema, the media type must be
// documented and a JSON body must match its schema, with no field the document does not name.

interface HeaderObject {
  required?: boolean;
  schema?: { type?: string | string[] };
}
interface ResponseObject {
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, unknown>;
}
interface Reference {
  $ref: string;
}
interface PathItem {
  servers?: { url: string }[];
  [method: string]: unknown;
}
interface Document {
  paths: Record<string, PathItem>;
  webhooks: Record<string, { post: { parameters: { in: string; name: string; required?: boolean }[] } }>;
  'x-unmatched-requests': Record<string, Record<string, Reference>>;
}

/** The request and the answer as the client saw them. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

const DOCUMENT_ID = 'openapi';
const PLATFORM_STAGE = stageNames.platform;

const document = publishedDocument() as unknown as Document & Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document, DOCUMENT_ID);

const isReference = (value: unknown): value is Reference =>
  typeof value === 'object' && value !== null && '$ref' in value && typeof value.$ref === 'string';

/** Follows a local `$ref` (`#/components/...`) to what it names. */
function resolve<T>(value: T | Reference): { value: T; pointer?: string } {
  if (!isReference(value)) return { value };
  const pointer = value.$ref.replace(/^#/, '');
  let node: unknown = document;
  for (const token of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (node === undefined) throw new Error(`The document's ${value.$ref} names nothing`);
  return { value: node as T, pointer };
}

const escapeToken = (token: string): string =>
  encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const segmentsOf = (path: string): string[] => path.split('/').filter((segment) => segment !== '');

/** The server and path below it that a URL addresses: `/v1/...` is the platform API, the rest the backend. */
function addressOf(url: string): { server: string; segments: string[] } {
  const [first, ...rest] = segmentsOf(new URL(url).pathname);
  return first === PLATFORM_STAGE
    ? { server: '{base_url}', segments: rest }
    : { server: '{backend_url}', segments: first === undefined ? [] : [first, ...rest] };
}

/** The document path of that server that matches, literal segments before parameters (as API Gateway does). */
function documentPathOf(server: string, segments: string[]): string | undefined {
  const candidates = Object.entries(document.paths)
    .filter(([, item]) => item.servers?.[0]?.url === server)
    .map(([template]) => template)
    .filter((template) => {
      const parts = segmentsOf(template);
      return (
        parts.length === segments.length &&
        parts.every((part, index) => /^\{\w+\}$/.test(part) || part === segments[index])
      );
    });
  const literals = (template: string) => segmentsOf(template).filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => literals(b) - literals(a))[0];
}

/** Where the document describes this answer, or why it does not. */
function documentedResponse(exchange: Exchange): { pointer: string; response: ResponseObject } | string {
  const { server, segments } = addressOf(exchange.url);
  const path = documentPathOf(server, segments);
  const method = exchange.method.toLowerCase();
  const operation = path === undefined ? undefined : document.paths[path]?.[method];
  if (path !== undefined && operation !== undefined) {
    const responses = (operation as { responses: Record<string, ResponseObject | Reference> }).responses;
    const response = responses[String(exchange.status)];
    if (!response) {
      return `${method.toUpperCase()} ${path} (${server}) documents no ${exchange.status} (it documents ${Object.keys(responses).join(', ')})`;
    }
    const resolved = resolve(response);
    const pointer = resolved.pointer ?? `/paths/${escapeToken(path)}/${method}/responses/${exchange.status}`;
    return { pointer, response: resolved.value };
  }
  const unmatched = document['x-unmatched-requests'][server] ?? {};
  const reference = unmatched[String(exchange.status)];
  if (!reference) {
    return `no operation serves ${exchange.method} on this path of ${server}, and its unmatched answers are ${Object.keys(unmatched).join(', ')}, not ${exchange.status}`;
  }
  const resolved = resolve<ResponseObject>(reference);
  return { pointer: resolved.pointer ?? '', response: resolved.value };
}

function headerProblems(response: ResponseObject, headers: Headers): string[] {
  const problems: string[] = [];
  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    const header = resolve(declared).value;
    const value = headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const numeric = header.schema?.type === 'integer' || header.schema?.type === 'number';
    if (numeric && !/^-?\d+(\.\d+)?$/.test(value)) problems.push(`header ${name} is not a number: ${value}`);
    else if (header.schema && !ajv.validate(header.schema, numeric ? Number(value) : value)) {
      problems.push(`header ${name}: ${ajv.errorsText(ajv.errors, { dataVar: name })}`);
    }
  }
  return problems;
}

function bodyProblems(pointer: string, response: ResponseObject, exchange: Exchange): string[] {
  const contentType = exchange.headers.get('content-type');
  if (!response.content) return exchange.text === '' ? [] : ['a body, where the document describes none'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(mediaType in response.content)) {
    return [`media type ${contentType}, where it documents ${Object.keys(response.content).join(', ')}`];
  }
  if (mediaType !== 'application/json') return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.text);
  } catch {
    return ['a body that is not JSON'];
  }
  const validate = validatorAt(`${pointer}/content/${escapeToken(mediaType)}/schema`);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => {
    const field = error.params.additionalProperty;
    return `body${error.instancePath} ${error.message}${typeof field === 'string' ? `: ${field}` : ''}`;
  });
}

/** Throws, naming every difference, unless the document describes this answer. */
export function assertDocumented(exchange: Exchange): void {
  const found = documentedResponse(exchange);
  const problems =
    typeof found === 'string'
      ? [found]
      : [
          ...headerProblems(found.response, exchange.headers),
          ...bodyProblems(found.pointer, found.response, exchange),
        ];
  if (problems.length === 0) return;
  const body = exchange.text.length > 500 ? `${exchange.text.slice(0, 500)}...` : exchange.text;
  throw new Error(
    `The OpenAPI document does not describe the answer to ${exchange.method} ${exchange.url}: ${exchange.status} ${body}\n- ${problems.join('\n- ')}`,
  );
}

/**
 * Throws, naming every difference, unless the document's `webhooks` describe this delivery: an entry
 * for its `type`, every header the entry requires, and a body that matches the entry's schema.
 */
export function assertWebhookDocumented(body: string, headers: Record<string, unknown>): void {
  let event: { type?: unknown };
  try {
    event = JSON.parse(body) as { type?: unknown };
  } catch {
    throw new Error(`A webhook delivery whose body is not JSON: ${body.slice(0, 200)}`);
  }
  const type = String(event.type);
  const entry = document.webhooks[type];
  if (!entry) throw new Error(`The OpenAPI document's webhooks have no entry for ${type}: ${body}`);
  const problems = entry.post.parameters
    .filter((parameter) => parameter.in === 'header' && parameter.required)
    .filter((parameter) => typeof headers[parameter.name] !== 'string')
    .map((parameter) => `header ${parameter.name} is missing`);
  const validate = validatorAt(
    `/webhooks/${escapeToken(type)}/post/requestBody/content/application~1json/schema`,
  );
  if (!validate(event)) {
    problems.push(
      ...(validate.errors ?? []).map((error) => {
        const field = error.params.additionalProperty;
        return `body${error.instancePath} ${error.message}${typeof field === 'string' ? `: ${field}` : ''}`;
      }),
    );
  }
  if (problems.length > 0) {
    throw new Error(
      `The OpenAPI document does not describe this ${type} delivery: ${body}\n- ${problems.join('\n- ')}`,
    );
  }
}
