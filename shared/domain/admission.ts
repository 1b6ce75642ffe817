import { type AdmissionPolicy, countKeyRequest } from '#shared/db/keys/admission-counter.ts';
import type { KeyRecord } from '#shared/db/keys/api-keys.ts';
import { countInBucket } from '#shared/db/keys/rate-buckets.ts';
import { hashApiKey, isWellFormedApiKey } from '#shared/model/api-key-format.ts';
import type { Caller } from '#shared/model/caller.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { RateLimitedError, UnauthorizedError } from '#shared/model/errors.ts';
import { allowance, type RateLimitState, retryAfterSeconds, windowAt } from '#shared/model/rate-limit.ts';
import { scopesOf } from '#shared/model/scopes.ts';
import { personalTeamOf } from '#shared/model/teams.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';
import { config } from '#shared/runtime/config.ts';
import { recordIsGenuine } from './key-identity.ts';

// Admission for key-protected endpoints: who is calling, and may they call now? A valid key is
// authenticated and counted in one DynamoDB call; a request without one is counted against its
// source address in a stricter bucket, so guessing keys is throttled too.

export type Admission =
  | { admitted: true; caller: Caller; rateLimit: RateLimitState }
  | { admitted: false; error: UnauthorizedError | RateLimitedError; rateLimit: RateLimitState };

// The scheme is case-insensitive (RFC 9110, section 11.1); the key itself is not.
const BEARER = /^Bearer +([^\s]+)$/i;

/** The key from an `Authorization: Bearer <key>` header, if it is one of ours by shape and checksum. */
function bearerKey(authorization: string | undefined): string | undefined {
  const key = BEARER.exec(authorization?.trim() ?? '')?.[1];
  return key !== undefined && isWellFormedApiKey(key) ? key : undefined;
}

type KeyAdmission =
  | { outcome: 'admitted'; caller: Caller; rateLimit: RateLimitState }
  | { outcome: 'limited'; rateLimit: RateLimitState }
  | { outcome: 'rejected' };

const limitOf = (key: KeyRecord, policy: AdmissionPolicy): number => key.rateLimit ?? policy.defaultLimit;

/** The caller a genuine key record stands for: a user in their personal team, or a team token. */
function callerOf(key: KeyRecord): Caller {
  const caller: Caller = {
    userId: key.userId,
    role: key.role === 'admin' ? 'admin' : 'member',
    keyId: key.keyId,
    keyName: key.name,
    keyHash: key.keyHash,
    scopes: scopesOf(key.scopes),
    keyExpiresAt: key.expiresAt,
    // Until the request names another: shared/http/admission/team-scope.ts.
    team: personalTeamOf(key.userId),
    ...(key.rateLimit === undefined ? {} : { keyRateLimit: key.rateLimit }),
  };
  const { team } = key;
  if (team === undefined) return caller;
  return {
    ...caller,
    role: 'member',
    // A token acts as its team with an admin's role, less what tokens never do (team-access.ts).
    team: { id: team.teamId, partition: team.partition, personal: false, role: 'admin' },
    token: {
      ...(team.projectIds === null ? {} : { projectIds: team.projectIds }),
      targets: DEPLOYMENT_TARGETS.filter((target) => team.targets.includes(target)),
    },
  };
}

/**
 * Authenticates a key and counts the request in one conditional write; the record that write
 * returns is trusted only when its identity fields carry the issuer's signature, so an item a
 * compromised function changed or made up admits nothing.
 */
async function checkKey(key: string | undefined, now: number): Promise<KeyAdmission> {
  if (key === undefined) return { outcome: 'rejected' };
  const policy: AdmissionPolicy = {
    nowSeconds: now,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    defaultLimit: config.RATE_LIMIT_MAX,
  };
  const count = await countKeyRequest(hashApiKey(key), policy, recordIsGenuine);
  if (count.outcome === 'refused') return { outcome: 'rejected' };
  const limit = limitOf(count.key, policy);
  const window = { start: count.windowStart, end: count.windowStart + policy.windowSeconds };
  if (count.outcome === 'limited') return { outcome: 'limited', rateLimit: allowance(limit, limit, window) };
  if (!recordIsGenuine(count.key)) return { outcome: 'rejected' };
  return {
    outcome: 'admitted',
    caller: callerOf(count.key),
    rateLimit: allowance(limit, count.key.windowCount, window),
  };
}

/**
 * What to report before the store has answered: the default allowance, none of it left. Should
 * the store fail, the 500 still carries the headers, and a client that honours them backs off
 * until the window ends instead of retrying into an outage.
 */
export function allowanceBeforeCounting(): RateLimitState {
  const limit = config.RATE_LIMIT_MAX;
  return allowance(limit, limit, windowAt(nowSeconds(), config.RATE_LIMIT_WINDOW_SECONDS));
}

export async function admit(authorization: string | undefined, sourceIp: string): Promise<Admission> {
  const now = nowSeconds();
  const result = await checkKey(bearerKey(authorization), now);
  if (result.outcome === 'admitted')
    return { admitted: true, caller: result.caller, rateLimit: result.rateLimit };
  if (result.outcome === 'limited') {
    return {
      admitted: false,
      error: new RateLimitedError(retryAfterSeconds(result.rateLimit, now)),
      rateLimit: result.rateLimit,
    };
  }

  const anonymous = await countInBucket('anonymous-ip', sourceIp, {
    nowSeconds: now,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    limit: config.ANONYMOUS_RATE_LIMIT_MAX,
  });
  const error = anonymous.allowed
    ? new UnauthorizedError('A valid API key is required: send Authorization: Bearer <API_KEY>')
    : new RateLimitedError(retryAfterSeconds(anonymous.rateLimit, now));
  return { admitted: false, error, rateLimit: anonymous.rateLimit };
}
