import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { identityIsGenuine, type KeyIdentity, signIdentity } from '#shared/domain/key-identity.ts';
import type { Caller, Role } from '#shared/model/caller.ts';
import { newId } from '#shared/model/ids.ts';
import { allowance, type RateLimitState, windowAt } from '#shared/model/rate-limit.ts';
import { type Scope, scopesOf } from '#shared/model/scopes.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { ApiKey as ApiKeySchema } from '#shared/schemas/resources.ts';
import { countingDb, db } from './client.ts';
import { conditionally, putNew } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { indexes, tableName } from './tables.ts';

// The API-key table, keyed by the SHA-256 digest of the key. One item holds the owner, the role,
// the expiry and the current window's counter, so that a single conditional UpdateItem
// authenticates the key, checks the window and counts the request.

const table = (): string => tableName('apiKeys');
// The owner index (keys only: shared/db/tables.ts), under the name the queries below use.
const byOwner = indexes.apiKeys.ownerKeys;

interface ApiKeyItem {
  keyHash: string;
  keyId: string;
  userId: string;
  role: Role;
  name: string;
  scopes: Scope[];
  /** The first characters and the last four of the plaintext: enough to recognise a key, not to use it. */
  prefix: string;
  last4: string;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
  revokedAt?: string;
  /** Written by the counting write that admits a request: no call of its own. */
  lastUsedAt?: string;
  /** This key's own allowance per window; the configured default applies when absent. */
  rateLimit?: number;
  windowStart: number;
  windowCount: number;
  /** Over the identity fields (shared/domain/key-identity.ts): what admission trusts them by. */
  identitySignature: string;
}

export interface NewApiKey {
  keyHash: string;
  userId: string;
  role: Role;
  name: string;
  scopes: Scope[];
  prefix: string;
  last4: string;
  expiresAt: number;
  rateLimit?: number;
  windowSeconds: number;
  nowSeconds: number;
}

/** Stores a key's digest and returns its id. The caller made the key and keeps the plaintext. */
export async function putApiKey(key: NewApiKey): Promise<string> {
  const keyId = newId('key');
  const identity: KeyIdentity = {
    keyHash: key.keyHash,
    keyId,
    userId: key.userId,
    role: key.role,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
    ...(key.rateLimit === undefined ? {} : { rateLimit: key.rateLimit }),
  };
  const item: ApiKeyItem = {
    keyHash: key.keyHash,
    keyId,
    userId: key.userId,
    role: key.role,
    name: key.name,
    scopes: key.scopes,
    prefix: key.prefix,
    last4: key.last4,
    createdAt: new Date(key.nowSeconds * 1000).toISOString(),
    expiresAt: key.expiresAt,
    ...(key.rateLimit === undefined ? {} : { rateLimit: key.rateLimit }),
    windowStart: windowAt(key.nowSeconds, key.windowSeconds).start,
    windowCount: 0,
    identitySignature: await signIdentity(identity),
  };
  // A put whose response was lost and that the SDK retried finds its own item: that is a success.
  await putNew(
    (input) => db.send(new PutCommand(input)),
    { TableName: table(), Item: { ...item } },
    'keyHash',
  );
  return keyId;
}

/** A key as its owner sees it: the response schema's type, so no field goes undocumented. */
export type StoredKey = z.output<typeof ApiKeySchema>;

const isoOfSeconds = (seconds: number): string => new Date(seconds * 1000).toISOString();

const toStoredKey = (item: Record<string, unknown>): StoredKey => ({
  id: String(item.keyId),
  name: typeof item.name === 'string' ? item.name : '',
  prefix: typeof item.prefix === 'string' ? item.prefix : '',
  last4: typeof item.last4 === 'string' ? item.last4 : '',
  scopes: scopesOf(item.scopes),
  createdAt: String(item.createdAt),
  expiresAt: isoOfSeconds(Number(item.expiresAt)),
  lastUsedAt: typeof item.lastUsedAt === 'string' ? item.lastUsedAt : null,
  ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
});

/** How many digests one BatchGetItem may ask for: a page of keys (at most 100) is one call. */
const BATCH_GET_MAX = 100;

/**
 * The items of the given digests, in the order given. The owner index holds keys only, so a listing
 * reads its page's items here: one BatchGetItem, repeated only for what DynamoDB left unprocessed.
 * A key deleted in between (expired, by TTL) is left out.
 */
async function itemsOf(keyHashes: readonly string[]): Promise<Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < keyHashes.length; start += BATCH_GET_MAX) {
    let keys: Record<string, unknown>[] | undefined = keyHashes
      .slice(start, start + BATCH_GET_MAX)
      .map((keyHash) => ({ keyHash }));
    while (keys !== undefined && keys.length > 0) {
      const answer: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys } } }),
      );
      for (const item of answer.Responses?.[table()] ?? []) found.set(String(item.keyHash), item);
      keys = answer.UnprocessedKeys?.[table()]?.Keys;
    }
  }
  return keyHashes.flatMap((keyHash) => {
    const item = found.get(keyHash);
    return item === undefined ? [] : [item];
  });
}

/**
 * A user's keys, newest first: one Query of the owner index for the page (full pages: the index
 * holds every key of the user), then the page's items. The cursor carries key ids only: the digest
 * never leaves the store.
 */
export async function listApiKeys(userId: string, page: PageRequest): Promise<Page<StoredKey>> {
  const result = await queryPage(
    {
      scope: `keys:${userId}`,
      query: {
        TableName: table(),
        IndexName: byOwner.name,
        KeyConditionExpression: '#owner = :userId',
        ExpressionAttributeNames: { '#owner': byOwner.partitionKey },
        ExpressionAttributeValues: { ':userId': userId },
      },
      resume: { below: byOwner.sortKey },
    },
    page,
  );
  const items =
    result.items.length === 0 ? [] : await itemsOf(result.items.map((item) => String(item.keyHash)));
  return { items: items.map(toStoredKey), nextCursor: result.nextCursor };
}

/**
 * Revokes one of a user's keys by id: the index finds its digest, one conditional write on the item
 * revokes it (and only if it belongs to that user). False when the user has no such key.
 */
export async function revokeApiKeyById(userId: string, keyId: string, revokedAt: string): Promise<boolean> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: table(),
      IndexName: byOwner.name,
      KeyConditionExpression: '#owner = :userId AND #keyId = :keyId',
      ExpressionAttributeNames: { '#owner': byOwner.partitionKey, '#keyId': byOwner.sortKey },
      ExpressionAttributeValues: { ':userId': userId, ':keyId': keyId },
      ProjectionExpression: 'keyHash',
    }),
  );
  const keyHash = Items[0]?.keyHash;
  if (typeof keyHash !== 'string') return false;
  const revoked = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        // A key revoked before keeps the time it was first revoked.
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :revokedAt)',
        ConditionExpression: 'userId = :userId',
        ExpressionAttributeValues: { ':revokedAt': revokedAt, ':userId': userId },
      }),
    ),
  );
  return !revoked.failed;
}

export async function revokeApiKeyByHash(keyHash: string, revokedAt: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { keyHash },
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :revokedAt)',
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

const usedAt = (policy: AdmissionPolicy): string => isoOfSeconds(policy.nowSeconds);

// Shared by both writes: the key exists, is live and is not revoked.
const LIVE_KEY = 'attribute_exists(keyHash) AND expiresAt > :now AND attribute_not_exists(revokedAt)';
const UNDER_LIMIT =
  '((attribute_exists(rateLimit) AND windowCount < rateLimit) OR (attribute_not_exists(rateLimit) AND windowCount < :defaultLimit))';

/** Whether an item's owner, role, scopes, expiry and allowance are still those it was issued with. */
const isGenuine = (item: Record<string, unknown>): boolean =>
  identityIsGenuine(
    {
      keyHash: String(item.keyHash),
      keyId: String(item.keyId),
      userId: String(item.userId),
      role: String(item.role),
      scopes: Array.isArray(item.scopes) ? item.scopes.map(String) : [],
      expiresAt: Number(item.expiresAt),
      ...(typeof item.rateLimit === 'number' ? { rateLimit: item.rateLimit } : {}),
    },
    item.identitySignature,
  );

const limitOf = (item: Record<string, unknown>, defaultLimit: number): number =>
  typeof item.rateLimit === 'number' ? item.rateLimit : defaultLimit;

/** The caller an item stands for, when its identity fields are genuine; a tampered item admits nothing. */
const admitted = (
  item: Record<string, unknown>,
  policy: AdmissionPolicy,
  windowStart: number,
): KeyAdmission => (isGenuine(item) ? admittedCaller(item, policy, windowStart) : { outcome: 'rejected' });

const admittedCaller = (
  item: Record<string, unknown>,
  policy: AdmissionPolicy,
  windowStart: number,
): KeyAdmission => ({
  outcome: 'admitted',
  caller: {
    userId: String(item.userId),
    role: item.role === 'admin' ? 'admin' : 'member',
    keyId: String(item.keyId),
    keyHash: String(item.keyHash),
    scopes: scopesOf(item.scopes),
    keyExpiresAt: Number(item.expiresAt),
    ...(typeof item.rateLimit === 'number' ? { keyRateLimit: item.rateLimit } : {}),
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
    if (
      !old ||
      !isGenuine(old) ||
      Number(old.expiresAt) <= policy.nowSeconds ||
      old.revokedAt !== undefined
    ) {
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
