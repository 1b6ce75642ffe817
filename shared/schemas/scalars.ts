import * as z from 'zod/mini';
import { _isoDateTime } from 'zod/v4/core';

// The scalars that request schemas share with the resources (shared/schemas/resources.ts): in a module
// of their own, because a function that validates a body with one of them bundles this module, and
// the resources' module, whose registrations esbuild must keep, would add 11 KB to it. Only those:
// whatever else is here is in those functions' bundles too.

// zod's own ISO date-time schema, made as `z.iso.datetime()` makes it: reached through the `iso`
// namespace, it brings into the bundle every class of that namespace (date, time, duration) and their
// patterns, 1.3 KB that esbuild cannot shake off a namespace's namespace.
export const Timestamp = _isoDateTime(z.ZodMiniISODateTime, {}).register(z.globalRegistry, {
  id: 'Timestamp',
  description: 'ISO-8601 date and time in UTC',
  examples: ['2026-11-22T09:15:42.123Z'],
});
