import { isoNow, nowSeconds } from '../clock.ts';
import { config } from '../config.ts';
import { putApiKey, revokeApiKeyByHash } from '../db/api-keys.ts';
import { generateApiKey, hashApiKey } from './api-key-format.ts';
import type { Role } from './caller.ts';

export interface IssuedApiKey {
  /** The plaintext: returned once, to the caller that asked for it, and never stored. */
  apiKey: string;
  keyId: string;
  expiresAt: string;
}

export interface KeyRequest {
  userId: string;
  role: Role;
  /** Defaults to API_KEY_TTL_SECONDS. */
  ttlSeconds?: number;
  /** This key's own allowance per window; RATE_LIMIT_MAX when absent. */
  rateLimit?: number;
}

/** Issues a new API key for a user: login calls this, and so do tests and operator scripts. */
export async function issueApiKey(request: KeyRequest): Promise<IssuedApiKey> {
  const apiKey = generateApiKey();
  const now = nowSeconds();
  const expiresAt = now + (request.ttlSeconds ?? config.API_KEY_TTL_SECONDS);
  const keyId = await putApiKey({
    keyHash: hashApiKey(apiKey),
    userId: request.userId,
    role: request.role,
    expiresAt,
    ...(request.rateLimit === undefined ? {} : { rateLimit: request.rateLimit }),
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    nowSeconds: now,
  });
  return { apiKey, keyId, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

export async function revokeApiKey(apiKey: string): Promise<void> {
  await revokeApiKeyByHash(hashApiKey(apiKey), isoNow());
}
