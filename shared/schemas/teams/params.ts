import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { atMost } from '#shared/schemas/common.ts';

// The path parameters of the team routes, apart from the bodies that make and change teams
// (teams.ts, team-tokens.ts): a module of registered schemas is bundled whole, and a function that
// only names a team has no use for the bodies' schemas (nor for the email check they bring).

const TeamId = z
  .string()
  .check(atMost(ID_MAX_LENGTH))
  .register(z.globalRegistry, {
    description: 'A team id as the API returned it; one of another shape answers 404, like an unknown one.',
    examples: ['team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B'],
  });

/** `{teamId}` in a path. */
export const TeamParams = z.object({ teamId: TeamId });

/** `{teamId}` and `{userId}`: one member. */
export const MemberParams = z.object({
  teamId: TeamId,
  userId: z
    .string()
    .check(atMost(ID_MAX_LENGTH))
    .register(z.globalRegistry, { examples: ['usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y'] }),
});

/** `{teamId}` and `{id}`: one invitation. */
export const InvitationParams = z.object({
  teamId: TeamId,
  id: z
    .string()
    .check(atMost(ID_MAX_LENGTH))
    .register(z.globalRegistry, { examples: ['inv_01JD8Z6H7J8K9M0N1P2Q3R4S5V'] }),
});

/** `{teamId}` and `{id}`: one token. */
export const TokenParams = z.object({
  teamId: TeamId,
  id: z
    .string()
    .check(atMost(ID_MAX_LENGTH))
    .register(z.globalRegistry, { examples: ['key_01JD8Z5C6D7E8F9G0H1J2K3M4N'] }),
});
