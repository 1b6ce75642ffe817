import * as z from 'zod/mini';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { SCOPES } from '#shared/model/scopes.ts';
import { MAX_TOKEN_DAYS, MAX_TOKEN_PROJECTS } from '#shared/model/team-tokens.ts';
import { atMost } from '#shared/schemas/common.ts';
import { DisplayName } from '#shared/schemas/names.ts';

// Team tokens: what an admin asks for (what they are shown as: team-token-resources.ts).

export const CreateTeamTokenBody = z
  .strictObject({
    name: DisplayName,
    scopes: z.array(z.enum(SCOPES)).check(z.minLength(1, 'must name at least one scope')),
    projectIds: z
      .optional(
        z
          .array(z.string().check(atMost(ID_MAX_LENGTH)))
          .check(z.minLength(1, 'must name at least one project'), z.maxLength(MAX_TOKEN_PROJECTS)),
      )
      .register(z.globalRegistry, {
        description: `At most ${MAX_TOKEN_PROJECTS} projects of the team: the token reaches those only (others are 404, lists show only them, creating a project is 403). Every project of the team when absent.`,
      }),
    targets: z
      .optional(z.array(z.enum(DEPLOYMENT_TARGETS)).check(z.minLength(1, 'must name at least one target')))
      .register(z.globalRegistry, {
        description:
          'Without `production`, the token may not create, promote, roll back to or read the build environment of production deployments, nor write production variables. Both when absent.',
      }),
    expiresInDays: z
      .int()
      .check(z.minimum(1), z.maximum(MAX_TOKEN_DAYS))
      .register(z.globalRegistry, {
        description: `Required, 1 to ${MAX_TOKEN_DAYS}: no token lives forever.`,
      }),
  })
  .register(z.globalRegistry, {
    id: 'CreateTeamTokenBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [
      { name: 'github actions', scopes: ['read', 'write'], targets: ['preview'], expiresInDays: 90 },
    ],
  });

export type CreateTeamTokenInput = z.output<typeof CreateTeamTokenBody>;
