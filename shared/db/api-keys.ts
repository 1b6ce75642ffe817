import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Caller, Role } from '../domain/caller.ts';
import { allowance, type RateLimitState, windowAt } from '../domain/rate-limit.ts';
import { newId } from '../ids.ts';
import { countingDb, db } from './client.ts';
import { conditionally } from './conditional.ts';
import { tableName } from './tables.ts';

// The API-key table, keyed by the SHA-256 digest of the key. One item holds the owner, the role,
// the expiry and the current window's counter, so that a single conditional UpdateItem
// authenticates the key, checks the window and counts the request.

const table = (): string => tableName('apiKeys');

interface ApiKeyItem {
  keyHash: string;
  keyId: string;
  userId: string;
  role: Role;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
  revokedAt?: string;
  /** This key's own allowance per window; the configured default applies when absent. */
  rateLimit?: number;
  windowStart: number;
  windowCount: number;
}

export interface NewApiKey {
  keyHash: string;
  userId: string;
  role: Role;
  expiresAt: number;
  rateLimit?: number;
  windowSeconds: number;
  nowSeconds: number;
}

/** Stores a key's digest and returns its id. The caller made the key and keeps the plaintext. */
export async function putApiKey(key: NewApiKey): Promise<string> {
  const keyId = newId('key');
  const item: ApiKeyItem = {
    keyHash: key.keyHash,
    keyId,
    userId: key.userId,
    role: key.role,
    createdAt: new Date(key.nowSeconds * 1000).toISOString(),
    expiresAt: key.expiresAt,
    ...(key.rateLimit === undefined ? {} : { rateLimit: key.rateLimit }),
    windowStart: windowAt(key.nowSeconds, key.windowSeconds).start,
    windowCount: 0,
  };
  await db.send(
    new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(keyHash)' }),
  );
  return keyId;
}

export async function revokeApiKeyByHash(keyHash: string, revokedAt: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        UpdateExpression: 'SET revokedAt = :revokedAt',
        ConditionExpression: 'attribute_exists(keyHash)',
        ExpressionAttributeValues: { ':revokedAt': revokedAt },
      }),
    ),
  );
}

/** The stored counter of a key (tests and operators; requests never read it this way). */
export async function readKeyCounter(
  keyHash: string,
): Promise<{ windowStart: number; windowCount: number } | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: { keyHash }, ConsistentRead: true }),
  );
  return Item ? { windowStart: Number(Item.windowStart), windowCount: Number(Item.windowCount) } : undefined;
}

export type KeyAdmission =
  | { outcome: 'admitted'; caller: Caller; rateLimit: RateLimitState }
  | { outcome: 'limited'; rateLimit: RateLimitState }
  | { outcome: 'rejected' };

export interface AdmissionPolicy {
  nowSeconds: number;
  windowSeconds: number;
  defaultLimit: number;
}

// Shared by both writes: the key exists, is live and is not revoked.
const LIVE_KEY = 'attribute_exists(keyHash) AND expiresAt > :now AND attribute_not_exists(revokedAt)';
const UNDER_LIMIT =
  '((attribute_exists(rateLimit) AND windowCount < rateLimit) OR (attribute_not_exists(rateLimit) AND windowCount < :defaultLimit))';

const limitOf = (item: Record<string, unknown>, defaultLimit: number): number =>
  typeof item.rateLimit === 'number' ? item.rateLimit : defaultLimit;

const admitted = (
  item: Record<string, unknown>,
  policy: AdmissionPolicy,
  windowStart: number,
): KeyAdmission => ({
  outcome: 'admitted',
  caller: {
    userId: String(item.userId),
    role: item.role === 'admin' ? 'admin' : 'member',
    keyId: String(item.keyId),
  },
  rateLimit: allowance(limitOf(item, policy.defaultLimit), Number(item.windowCount), {
    start: windowStart,
    end: windowStart + policy.windowSeconds,
  }),
});

/** Counts one request in the key's current window: one UpdateItem while the window is current. */
function countInWindow(keyHash: string, windowStart: number, policy: AdmissionPolicy) {
  return conditionally(() =>
    countingDb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        UpdateExpression: 'SET windowCount = windowCount + :one',
        ConditionExpression: `${LIVE_KEY} AND windowStart = :windowStart AND ${UNDER_LIMIT}`,
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': policy.nowSeconds,
          ':windowStart': windowStart,
          ':defaultLimit': policy.defaultLimit,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
}

/** Moves the key into a newer window and counts this request as its first. */
function openWindow(keyHash: string, windowStart: number, policy: AdmissionPolicy) {
  return conditionally(() =>
    countingDb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        UpdateExpression: 'SET windowStart = :windowStart, windowCount = :one',
        ConditionExpression: `${LIVE_KEY} AND windowStart < :windowStart`,
        ExpressionAttributeValues: { ':one': 1, ':now': policy.nowSeconds, ':windowStart': windowStart },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
}

/**
 * Authenticates a key digest and counts the request against the key's window, exactly: every
 * count is a conditional write, so of N concurrent requests against an allowance of L, exactly
 * min(N, L) are admitted. A rejected request is not counted.
 */
export async function admitKey(keyHash: string, policy: AdmissionPolicy): Promise<KeyAdmission> {
  let windowStart = windowAt(policy.nowSeconds, policy.windowSeconds).start;
  // Each pass either decides or learns something newer about the window; three passes cover a
  // window change racing with other containers.
  for (let pass = 0; pass < 3; pass++) {
    const counted = await countInWindow(keyHash, windowStart, policy);
    if (!counted.failed) return admitted(counted.result.Attributes ?? {}, policy, windowStart);

    const old = counted.old;
    if (!old || Number(old.expiresAt) <= policy.nowSeconds || old.revokedAt !== undefined) {
      return { outcome: 'rejected' };
    }
    const storedStart = Number(old.windowStart);
    if (storedStart === windowStart) {
      const limit = limitOf(old, policy.defaultLimit);
      return {
        outcome: 'limited',
        rateLimit: allowance(limit, limit, { start: windowStart, end: windowStart + policy.windowSeconds }),
      };
    }
    if (storedStart > windowStart) {
      // Another container's clock is already in the next window: count there rather than go back.
      windowStart = storedStart;
      continue;
    }
    const opened = await openWindow(keyHash, windowStart, policy);
    if (!opened.failed) return admitted(opened.result.Attributes ?? {}, policy, windowStart);
    // Someone else opened this window first (or the key died meanwhile): count again.
  }
  throw new Error('Rate counter did not settle after repeated window changes');
}
