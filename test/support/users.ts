import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import type { Role } from '#shared/model/caller.ts';
import type { Scope } from '#shared/model/scopes.ts';

/** The users this test process made: the stream records its poller should take (ownedByThisRun). */
const madeHere = new Set<string>();

/**
 * Whether a stream record is about an item of a user this process made. Test files run in parallel
 * processes on one DynamoDB Local; a file that polls the streams takes only its own users' records
 * (infra/local/stream-poller.ts `accepts`), so another file's webhooks are not delivered twice.
 */
export function ownedByThisRun(record: DynamoDBRecord): boolean {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const owner = image?.ownerId?.S;
  return owner !== undefined && madeHere.has(owner);
}

export interface TestCaller {
  userId: string;
  key: string;
  /** The key's id (what GET /keys lists). */
  keyId: string;
}

/**
 * A fresh user id with a key issued through the same function login uses (never raw items), so
 * every test has its own owner, allowance and data.
 */
export async function newCaller(
  options: { role?: Role; rateLimit?: number; ttlSeconds?: number; scopes?: Scope[] } = {},
): Promise<TestCaller> {
  const userId = `usr_test_${randomUUID()}`;
  madeHere.add(userId);
  const issued = await issueApiKey({
    userId,
    role: options.role ?? 'member',
    name: 'test',
    ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
  });
  return { userId, key: issued.apiKey, keyId: issued.key.id };
}
