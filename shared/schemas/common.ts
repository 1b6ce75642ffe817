import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';

/**
 * A length cap that stops validation when it fails, so no later check (a regex, a refinement)
 * ever runs on an oversized value: zod otherwise runs every check of a field.
 */
export const atMost = (length: number, message = `must be at most ${length} characters`) =>
  z.maxLength(length, { error: message, abort: true });

/**
 * An id a client names a deployment or project by; its prefix and form are checked where it is looked
 * up (404). A new schema each call, so that each field can carry its own description.
 */
export const deploymentRef = () =>
  z.string().check(atMost(ID_MAX_LENGTH), z.minLength(1, 'must not be empty'));

/** `{id}` in a path. Its format is checked by the domain, which answers 404 for any unknown id. */
export const IdParams = z.object({
  id: z
    .string()
    .check(atMost(ID_MAX_LENGTH))
    .register(z.globalRegistry, {
      description: 'The id as the API returned it. An id of another shape answers 404, like an unknown one.',
      examples: ['prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'],
    }),
});

export type PageRequest = { limit: number; cursor?: string };
