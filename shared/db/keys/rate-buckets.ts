import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { countingDb } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { tableName } from '#shared/db/tables.ts';
import { allowance, type RateLimitState, windowAt } from '#shared/model/rate-limit.ts';

// Counters for callers who show no valid key: one item per bucket and window
// (`<scope>#<subject>#<windowStart>`), so one conditional UpdateItem always decides, and old
// windows simply expire by TTL.

const table = (): string => tableName('rateLimits');

export type BucketScope = 'anonymous-ip' | 'auth-ip' | 'login-email';

export interface BucketPolicy {
  nowSeconds: number;
  windowSeconds: number;
  limit: number;
}

export interface BucketCount {
  allowed: boolean;
  rateLimit: RateLimitState;
}

/** Counts one request in a bucket unless the bucket is full; a refused request is not counted. */
export async function countInBucket(
  scope: BucketScope,
  subject: string,
  policy: BucketPolicy,
): Promise<BucketCount> {
  const window = windowAt(policy.nowSeconds, policy.windowSeconds);
  const counted = await conditionally(() =>
    countingDb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { bucket: `${scope}#${subject}#${window.start}` },
        UpdateExpression: 'ADD hits :one SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': policy.limit, ':expiresAt': window.end },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  if (counted.failed) return { allowed: false, rateLimit: allowance(policy.limit, policy.limit, window) };
  return {
    allowed: true,
    rateLimit: allowance(policy.limit, Number(counted.result.Attributes?.hits), window),
  };
}
