import * as z from 'zod/mini';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployment-target.ts';
import { SCOPES } from '#shared/model/scopes.ts';
import { MAX_TOKEN_DAYS, MAX_TOKEN_PROJECTS } from '#shared/model/team-tokens.ts';
import { atMost } from './common.ts';
import { DisplayName } from './names.ts';
import { NextCursor, prefixedId, Timestamp } from './resources.ts';
import { TeamParams } from './teams.ts';

// Team tokens: what an admin asks for, and what the API shows of them. Like resources.ts, only the
// document imports the response shapes at run time.

export const CreateTeamTokenBody = z
  .strictObject({
    name: DisplayName,
    scopes: z.array(z.enum(SCOPES)).check(z.minLength(1, 'must name at least one scope')),
    projectIds: z
      .optional(
        z
          .array(z.string().check(atMost(64)))
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

/** `{teamId}` and `{id}`: one token. */
export const TokenParams = z.object({
  teamId: TeamParams.shape.teamId,
  id: z
    .string()
    .check(atMost(64))
    .register(z.globalRegistry, { examples: ['key_01JD8Z5C6D7E8F9G0H1J2K3M4N'] }),
});

const exampleToken = {
  id: 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N',
  name: 'github actions',
  prefix: 'platt_3xAm',
  last4: 'k9F3',
  scopes: ['read', 'write'],
  projectIds: null,
  targets: ['preview'],
  createdBy: 'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
  createdAt: '2026-11-25T09:15:00.000Z',
  expiresAt: '2027-02-23T09:15:00.000Z',
  lastUsedAt: null,
} as const;

export const TeamToken = z
  .strictObject({
    id: prefixedId('key', exampleToken.id),
    name: z.string(),
    prefix: z.string().register(z.globalRegistry, {
      description:
        "The token's first 10 characters (`platt_` says it is a team token): enough to recognise it, not to use it.",
    }),
    last4: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    projectIds: z.nullable(z.array(z.string())).register(z.globalRegistry, {
      description: 'The projects it is limited to; null for every project of the team.',
    }),
    targets: z.array(z.enum(DEPLOYMENT_TARGETS)),
    createdBy: z.string().register(z.globalRegistry, {
      description: 'The user who made it. The token outlives their membership: it acts as the team.',
    }),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    lastUsedAt: z.nullable(Timestamp),
    revokedAt: z.optional(Timestamp),
  })
  .register(z.globalRegistry, {
    id: 'TeamToken',
    description: 'A team token as its team sees it: never the secret, never its digest.',
    examples: [exampleToken],
  });

export const CreatedTeamToken = z
  .strictObject({ apiKey: z.string().check(z.regex(/^platt_[0-9A-Za-z]{38}$/)), token: TeamToken })
  .register(z.globalRegistry, {
    id: 'CreatedTeamToken',
    description:
      'A new team token: `apiKey` is its secret, shown this once (only its SHA-256 digest is stored).',
  });

export const TeamTokenList = z
  .strictObject({ tokens: z.array(TeamToken), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'TeamTokenList', description: "A team's tokens, newest first." });
