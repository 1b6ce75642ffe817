import * as z from 'zod/mini';
import { SCOPES } from '#shared/model/scopes.ts';
import { DisplayName } from './names.ts';

// API keys a user manages: the request to make one, and a key as its owner sees it (never the
// plaintext after the 201, never the digest).

const MAX_KEY_DAYS = 365;

const Scopes = z
  .array(z.enum(SCOPES))
  .check(z.minLength(1, 'must name at least one scope'), z.maxLength(SCOPES.length))
  .register(z.globalRegistry, {
    description: '`read` allows GET requests only; `write` allows everything.',
    examples: [['read']],
  });

export const CreateKeyBody = z
  .strictObject({
    name: DisplayName,
    scopes: z.optional(Scopes).register(z.globalRegistry, {
      description: "Defaults to the calling key's scopes, and may not exceed them.",
    }),
    expiresInDays: z
      .optional(z.int().check(z.minimum(1), z.maximum(MAX_KEY_DAYS)))
      .register(z.globalRegistry, {
        description:
          "1 to 365. Defaults to the configured lifetime (30 days), and never past the calling key's own expiry (a longer one is a 400).",
      }),
  })
  .register(z.globalRegistry, {
    id: 'CreateKeyBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{ name: 'ci deploys', scopes: ['read', 'write'], expiresInDays: 90 }],
  });

export type CreateKeyInput = z.output<typeof CreateKeyBody>;
