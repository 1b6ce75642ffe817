import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import {
  type ErrorCode,
  errorCatalogue,
  fixedMessageOf,
  type MessageErrorCode,
} from '#shared/model/error-catalogue.ts';
import { errorBodyOf, RateLimitedBody } from '#shared/schemas/error-bodies.ts';
import { errorDescriptions } from './error-descriptions.ts';

// The document's error responses, from the catalogue: one schema component per code (its literal
// code, its fixed message where it has one), described in the words of error-descriptions.ts.

/** `not_found` -> `NotFoundError`, `internal_error` -> `InternalError`. */
const componentIdOf = (code: MessageErrorCode): string => {
  const pascal = code
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
};

const exampleOf = (code: MessageErrorCode) => {
  const { exampleMessage, exampleField } = errorDescriptions[code];
  return {
    error: code,
    message: fixedMessageOf(code) ?? exampleMessage ?? '',
    ...(exampleField === undefined ? {} : { field: exampleField }),
  };
};

// Built once per code: a schema registers its component id once.
const schemas = new Map<MessageErrorCode, z.ZodMiniType>();

/** The body schema of one code, registered as its component. */
export function errorSchemaOf(code: ErrorCode): z.ZodMiniType {
  if (code === 'rate_limit_exceeded') return RateLimitedBody;
  const known = schemas.get(code);
  if (known) return known;
  const schema = errorBodyOf(code).register(z.globalRegistry, {
    id: componentIdOf(code),
    description: errorDescriptions[code].description,
    examples: [exampleOf(code)],
  });
  schemas.set(code, schema);
  return schema;
}

/** The response for one status that any of `codes` may answer (usually one code per status). */
export function errorResponseOf(
  codes: readonly ErrorCode[],
  headers: ZodOpenApiResponseObject['headers'],
): ZodOpenApiResponseObject {
  const [first, ...rest] = codes.map(errorSchemaOf);
  if (!first) throw new Error('An error response needs at least one code');
  return {
    description: codes.map((code) => `\`${code}\`: ${errorDescriptions[code].description}`).join('\n\n'),
    headers,
    content: { 'application/json': { schema: rest.length === 0 ? first : z.union([first, ...rest]) } },
  };
}

/** The codes grouped by their status, e.g. `{ 404: ['not_found'] }`. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = errorCatalogue[code];
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return groups;
}
