import * as z from 'zod/mini';

// The scalars that request schemas share with the resources (shared/schemas/resources.ts): in a module
// of their own, because a function that validates a body with one of them bundles this module, and
// the resources' module, whose registrations esbuild must keep, would add 11 KB to it.

export const Timestamp = z.iso.datetime().register(z.globalRegistry, {
  id: 'Timestamp',
  description: 'ISO-8601 date and time in UTC',
  examples: ['2026-11-22T09:15:42.123Z'],
});

export const NextCursor = z.nullable(z.string()).register(z.globalRegistry, {
  description:
    'Pass as `cursor` to get the next page; `null` on the last page. Opaque and signed: a changed cursor is a 400.',
  examples: [null],
});
