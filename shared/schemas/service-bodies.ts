import * as z from 'zod/mini';

// The bodies of the service's own endpoints: health, the OpenAPI document and the docs page.

const CheckState = z.enum(['ok', 'unavailable']);

export const Health = z
  .strictObject({ status: CheckState, checks: z.strictObject({ database: CheckState }) })
  .register(z.globalRegistry, {
    id: 'Health',
    description: '`ok` when the API-key table answers within 1.5 s (every keyed request needs it).',
    examples: [{ status: 'ok', checks: { database: 'ok' } }],
  });

export const OpenApiDocumentBody = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .register(z.globalRegistry, {
    id: 'OpenApiDocument',
    description: 'This document: OpenAPI 3.1, generated from the route table and the zod schemas.',
  });

/** A page or a file served as it is (HTML, CSS, JavaScript). */
export const TextBody = z.string();
