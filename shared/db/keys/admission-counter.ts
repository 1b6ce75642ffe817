import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { countingDb } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { tableName } from '#shared/db/tables.ts';
import { windowAt } from '#shared/model/rate-limit.ts';
import { type KeyRecord, keyRecordOf } from './api-keys.ts';

// The per-key request counter on the key's own item. One conditional UpdateItem authenticates the
// key (it exists, is live, is not revoked), checks the window and counts the request; on a refusal
// the same call returns the item as it was, which says why. Whether the item's identity fields can
// be trusted is the caller's question (shared/domain/admission.ts verifies their signature): this
// module only stores and counts.

const table = (): string => tableName('apiKeys');

export type KeyCount =
  | { outcome: 'counted'; key: KeyRecord; windowStart: number }
  | { outcome: 'limited'; key: KeyRecord; windowStart: number }
  | { outcome: 'refused' };

export interface AdmissionPolicy {
  nowSeconds: number;
  windowSeconds: number;
  defaultLimit: number;
}

const usedAt = (policy: AdmissionPolicy): string => new Date(policy.nowSeconds * 1000).toISOString();

// Shared by both writes: the key exists, is live and is not revoked.
const LIVE_KEY = 'attribute_exists(keyHash) AND expiresAt > :now AND attribute_not_exists(revokedAt)';
const UNDER_LIMIT =
  '((attribute_exists(rateLimit) AND windowCount < rateLimit) OR (attribute_not_exists(rateLimit) AND windowCount < :defaultLimit))';

/** Counts one request in the key's current window: one UpdateItem while the window is current. */
function countInWindow(keyHash: string, windowStart: number, policy: AdmissionPolicy) {
  return conditionally(() =>
    countingDb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        UpdateExpression: 'SET windowCount = windowCount + :one, lastUsedAt = :usedAt',
        ConditionExpression: `${LIVE_KEY} AND windowStart = :windowStart AND ${UNDER_LIMIT}`,
        ExpressionAttributeValues: {
          ':one': 1,
          ':usedAt': usedAt(policy),
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
        UpdateExpression: 'SET windowStart = :windowStart, windowCount = :one, lastUsedAt = :usedAt',
        ConditionExpression: `${LIVE_KEY} AND windowStart < :windowStart`,
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': policy.nowSeconds,
          ':windowStart': windowStart,
          ':usedAt': usedAt(policy),
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
}

/**
 * Counts a request against the key's window, exactly: every count is a conditional write, so of N
 * concurrent requests against an allowance of L, exactly min(N, L) are counted. A refused request is
 * not counted. `trusted` judges an item's identity fields; an untrusted item is refused and its
 * window is never moved.
 */
export async function countKeyRequest(
  keyHash: string,
  policy: AdmissionPolicy,
  trusted: (key: KeyRecord) => boolean,
): Promise<KeyCount> {
  let windowStart = windowAt(policy.nowSeconds, policy.windowSeconds).start;
  // Each pass either decides or learns something newer about the window; three passes cover a
  // window change racing with other containers.
  for (let pass = 0; pass < 3; pass++) {
    const counted = await countInWindow(keyHash, windowStart, policy);
    if (!counted.failed)
      return { outcome: 'counted', key: keyRecordOf(counted.result.Attributes), windowStart };

    const old = counted.old === undefined ? undefined : keyRecordOf(counted.old);
    if (!old || !trusted(old) || old.expiresAt <= policy.nowSeconds || old.revokedAt !== undefined) {
      return { outcome: 'refused' };
    }
    if (old.windowStart === windowStart) return { outcome: 'limited', key: old, windowStart };
    if (old.windowStart > windowStart) {
      // Another container's clock is already in the next window: count there rather than go back.
      windowStart = old.windowStart;
      continue;
    }
    const opened = await openWindow(keyHash, windowStart, policy);
    if (!opened.failed)
      return { outcome: 'counted', key: keyRecordOf(opened.result.Attributes), windowStart };
    // Someone else opened this window first (or the key died meanwhile): count again.
  }
  throw new Error('Rate counter did not settle after repeated window changes');
}
