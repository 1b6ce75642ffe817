import {
  type KeyRecord,
  listApiKeys,
  putApiKey,
  revokeApiKeyByHash,
  revokeApiKeyById,
  type StoredKey,
  type TokenTeam,
} from '#shared/db/keys/api-keys.ts';
import { releaseFromLedger } from '#shared/db/keys/ledger.ts';
import type { Page } from '#shared/db/pages.ts';
import { generateApiKey, hashApiKey, KEY_PREFIXES, type KeyKind } from '#shared/model/api-key-format.ts';
import type { Caller, Role } from '#shared/model/caller.ts';
import { NotFoundError, ValidationError } from '#shared/model/errors.ts';
import { newId } from '#shared/model/ids.ts';
import { windowAt } from '#shared/model/rate-limit.ts';
import { coversAll, type Scope, USER_SCOPES } from '#shared/model/scopes.ts';
import { isoNow, nowSeconds } from '#shared/runtime/clock.ts';
import { config } from '#shared/runtime/config.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { putKeyWithinCap } from './key-cap.ts';
import { signIdentity } from './key-identity.ts';

const DAY_SECONDS = 24 * 60 * 60;

/** How much of the plaintext a listing shows: the fixed prefix and four characters more. */
const SHOWN_AFTER_PREFIX = 4;

export interface IssuedApiKey {
  /** The plaintext: returned once, to the caller that asked for it, and never stored. */
  apiKey: string;
  key: StoredKey;
}

export interface KeyRequest {
  userId: string;
  role: Role;
  name: string;
  /** Defaults to a login key's scopes (read and write). */
  scopes?: Scope[];
  /** Defaults to API_KEY_TTL_SECONDS. */
  ttlSeconds?: number;
  /** This key's own allowance per window; RATE_LIMIT_MAX when absent. */
  rateLimit?: number;
  /** A team token's team and limits (then `userId` is the team's id), and the user who made it. */
  token?: { team: TokenTeam; createdBy: string };
}

/**
 * Issues a new API key for a user: login, key creation, tests and operator scripts all come here.
 * `put` stores it: as it is, or (POST /keys) counted against the user's ceiling.
 */
export async function issueApiKey(
  request: KeyRequest,
  put: (record: KeyRecord) => Promise<void> = putApiKey,
): Promise<IssuedApiKey> {
  const kind: KeyKind = request.token ? 'team' : 'user';
  const apiKey = generateApiKey(kind);
  const now = nowSeconds();
  const expiresAt = now + (request.ttlSeconds ?? config.API_KEY_TTL_SECONDS);
  const scopes = request.scopes ?? [...USER_SCOPES];
  const shown = {
    name: request.name,
    scopes,
    prefix: apiKey.slice(0, KEY_PREFIXES[kind].length + SHOWN_AFTER_PREFIX),
    last4: apiKey.slice(-4),
  };
  const keyId = newId('key');
  const createdAt = new Date(now * 1000).toISOString();
  const identity = {
    keyHash: hashApiKey(apiKey),
    keyId,
    userId: request.userId,
    role: request.role,
    scopes,
    expiresAt,
    ...(request.rateLimit === undefined ? {} : { rateLimit: request.rateLimit }),
    ...(request.token ? { team: request.token.team } : {}),
  };
  await put({
    ...(request.token ? { createdBy: request.token.createdBy } : {}),
    ...identity,
    ...shown,
    createdAt,
    windowStart: windowAt(now, config.RATE_LIMIT_WINDOW_SECONDS).start,
    windowCount: 0,
    identitySignature: await signIdentity(identity),
  });
  return {
    apiKey,
    key: {
      id: keyId,
      ...shown,
      createdAt,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
      lastUsedAt: null,
    },
  };
}

export interface NewKeyInput {
  name: string;
  scopes?: Scope[];
  expiresInDays?: number;
}

/**
 * A key the caller makes for itself (a CI job's, a laptop's). It can never do more than the key
 * that made it: no scope it lacks, no life past its expiry, no larger allowance; and a user holds at
 * most MAX_KEYS_PER_USER of them (key-cap.ts), so that minting keys cannot multiply the allowance.
 */
export async function createKey(caller: Caller, input: NewKeyInput): Promise<IssuedApiKey> {
  // Each scope once, as a team token's: `["read", "read"]` is the key `["read"]`.
  const scopes = [...new Set(input.scopes ?? caller.scopes)];
  if (!coversAll(caller.scopes, scopes)) {
    throw new ValidationError(
      'scopes',
      `scopes must not exceed those of the calling key (${caller.scopes.join(', ')})`,
    );
  }
  const remaining = caller.keyExpiresAt - nowSeconds();
  const asked = input.expiresInDays === undefined ? undefined : input.expiresInDays * DAY_SECONDS;
  if (asked !== undefined && asked > remaining) {
    throw new ValidationError(
      'expiresInDays',
      `expiresInDays must not outlive the calling key, which expires at ${new Date(caller.keyExpiresAt * 1000).toISOString()}`,
    );
  }
  return issueApiKey(
    {
      userId: caller.userId,
      role: caller.role,
      name: input.name,
      scopes,
      ttlSeconds: asked ?? Math.min(config.API_KEY_TTL_SECONDS, remaining),
      ...(caller.keyRateLimit === undefined ? {} : { rateLimit: caller.keyRateLimit }),
    },
    putKeyWithinCap,
  );
}

export const listKeys = (caller: Caller, page: PageRequest): Promise<Page<StoredKey>> =>
  listApiKeys(caller.userId, page);

/** Revokes one of the caller's keys; another user's key, or none, is not found. */
export async function revokeKey(caller: Caller, keyId: string): Promise<void> {
  if (!(await revokeApiKeyById(caller.userId, keyId, isoNow()))) throw new NotFoundError('Key not found');
  await releaseFromLedger(caller.userId, keyId);
}

/** Logout: the key that made the request is revoked; its next request is a 401. */
export async function revokeCallingKey(caller: Caller): Promise<void> {
  await revokeApiKeyByHash(caller.keyHash, isoNow());
  await releaseFromLedger(caller.userId, caller.keyId);
}

/** Revokes a key by its plaintext (tests and operators). */
export async function revokeApiKey(apiKey: string): Promise<void> {
  await revokeApiKeyByHash(hashApiKey(apiKey), isoNow());
}
