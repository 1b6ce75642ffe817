import * as z from 'zod/mini';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { SCOPES } from '#shared/model/scopes.ts';
import { NextCursor, prefixedId, Timestamp } from '#shared/schemas/resources.ts';

// Team tokens as the API shows them. Like resources.ts, only the document imports this module at
// run time.

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
