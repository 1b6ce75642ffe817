import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { atMost } from '#shared/schemas/common.ts';

/**
 * `?teamId=` on every route that acts in a team: which one. Read by the chain
 * (shared/http/admission/team-scope.ts), not by the handlers; here so the document shows it (only the document
 * imports this module: a module of registered schemas is bundled whole).
 */
export const TeamQuery = z.object({
  teamId: z.optional(z.string().check(atMost(ID_MAX_LENGTH), z.minLength(1))).register(z.globalRegistry, {
    description:
      'The team to act in; your personal team when absent. A team you are not a member of answers 404, like an unknown one.',
    examples: ['team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B'],
  }),
});
