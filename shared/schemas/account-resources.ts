import * as z from 'zod/mini';
import { SCOPES } from '#shared/model/scopes.ts';
import { NextCursor, prefixedId } from './resources.ts';
import { Timestamp } from './scalars.ts';

// Users, their logins and their API keys as the API shows them. Like resources.ts, only the
// document imports this module at run time.

const exampleUser = {
  id: 'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'member',
  createdAt: '2026-11-22T09:14:10.000Z',
} as const;

export const User = z
  .strictObject({
    id: prefixedId('usr', exampleUser.id),
    email: z.string(),
    name: z.nullable(z.string()),
    role: z.enum(['admin', 'member']),
    createdAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'User',
    description: 'A user. Never carries a password or its hash.',
    examples: [exampleUser],
  });

export const LoginResult = z
  .strictObject({
    apiKey: z.string().check(z.regex(/^plat_[0-9A-Za-z]{38}$/)),
    tokenType: z.literal('Bearer'),
    expiresAt: Timestamp,
    user: User,
  })
  .register(z.globalRegistry, {
    id: 'LoginResult',
    description:
      'A new API key, shown this once (only its SHA-256 digest is stored). Send it as `Authorization: Bearer <apiKey>`.',
    examples: [
      {
        apiKey: 'plat_3xAmPLeKeY0nLy4D0cUmEnTaT10n5aBcD1e2F3',
        tokenType: 'Bearer',
        expiresAt: '2026-12-22T09:15:00.000Z',
        user: exampleUser,
      },
    ],
  });

export const UserList = z
  .strictObject({ users: z.array(User), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'UserList', description: 'A page of users, newest first.' });

const exampleKey = {
  id: 'key_01JD8Z5C3D4E5F6G7H8J9K0M1N',
  name: 'ci deploys',
  prefix: 'plat_3xAm',
  last4: 'F3k9',
  scopes: ['read', 'write'],
  createdAt: '2026-11-22T09:20:00.000Z',
  expiresAt: '2026-12-22T09:20:00.000Z',
  lastUsedAt: null,
} as const;

export const ApiKey = z
  .strictObject({
    id: prefixedId('key', exampleKey.id),
    name: z.string(),
    prefix: z.string().register(z.globalRegistry, {
      description: "The key's first 9 characters: enough to recognise it, not to use it.",
    }),
    last4: z.string().register(z.globalRegistry, { description: "The key's last 4 characters." }),
    scopes: z.array(z.enum(SCOPES)),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    lastUsedAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description: 'When the key last made a request that was admitted (to the second); null if never.',
    }),
    revokedAt: z.optional(Timestamp).register(z.globalRegistry, {
      description: 'When the key was revoked; absent while it is not.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'ApiKey',
    description: 'An API key as its owner sees it: never the secret, never its digest.',
    examples: [exampleKey],
  });

export const CreatedApiKey = z
  .strictObject({
    apiKey: z.string().check(z.regex(/^plat_[0-9A-Za-z]{38}$/)),
    key: ApiKey,
  })
  .register(z.globalRegistry, {
    id: 'CreatedApiKey',
    description:
      'A new API key: `apiKey` is its secret, shown this once (only its SHA-256 digest is stored).',
    examples: [{ apiKey: 'plat_3xAmPLeKeY0nLy4D0cUmEnTaT10n5aBcD1F3k9', key: exampleKey }],
  });

export const ApiKeyList = z
  .strictObject({ keys: z.array(ApiKey), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'ApiKeyList',
    description:
      "A page of the caller's keys, newest first, revoked and expired ones included. Read from an index that DynamoDB fills asynchronously: a new key may take a moment to appear.",
  });
