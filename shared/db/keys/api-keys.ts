import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { batchGet } from '#shared/db/batch-get.ts';
import { db } from '#shared/db/client.ts';
import { conditionally, putNew } from '#shared/db/conditional.ts';
import { forEachPage, type Page, queryPage } from '#shared/db/pages.ts';
import { indexes, tableName } from '#shared/db/tables.ts';
import { scopesOf } from '#shared/model/scopes.ts';
import type { ApiKey as ApiKeySchema } from '#shared/schemas/account-resources.ts';
import type { PageRequest } from '#shared/schemas/common.ts';

// The API-key table, keyed by the SHA-256 digest of the key: the key records (issue, list, revoke).
// One item holds the owner, the role, the expiry and the current window's counter, so that a single
// conditional UpdateItem authenticates the key, checks the window and counts the request
// (./admission-counter.ts). The identity fields arrive signed and are stored as given.

const table = (): string => tableName('apiKeys');
// The owner index (keys only: shared/db/tables.ts), under the name the queries below use.
const byOwner = indexes.apiKeys.ownerKeys;

/** A key's item as stored. Identity fields are kept as read (not normalised): their signature covers them. */
export interface KeyRecord {
  keyHash: string;
  keyId: string;
  userId: string;
  role: string;
  name: string;
  scopes: string[];
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
  /** A team token's team, and what limits it (signed with the identity); absent on a user's key. */
  team?: TokenTeam;
  /** Who made a team token (a user id): shown, not trusted. */
  createdBy?: string;
}

/** What a team token acts as, and within what: `userId` is then the team's id, which lists its tokens. */
export interface TokenTeam {
  teamId: string;
  partition: string;
  /** The projects it is limited to; null for every project of the team. */
  projectIds: string[] | null;
  targets: string[];
}

const tokenTeamOf = (stored: unknown): TokenTeam | undefined => {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const team = stored as Record<string, unknown>;
  return {
    teamId: text(team.teamId),
    partition: text(team.partition),
    projectIds: Array.isArray(team.projectIds) ? team.projectIds.map(String) : null,
    targets: Array.isArray(team.targets) ? team.targets.map(String) : [],
  };
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A stored item as a record; absent or mistyped attributes become empty values, which verify as nothing. */
export const keyRecordOf = (item: Record<string, unknown> = {}): KeyRecord => ({
  keyHash: text(item.keyHash),
  keyId: text(item.keyId),
  userId: text(item.userId),
  role: text(item.role),
  name: text(item.name),
  scopes: Array.isArray(item.scopes) ? item.scopes.map(String) : [],
  prefix: text(item.prefix),
  last4: text(item.last4),
  createdAt: text(item.createdAt),
  expiresAt: Number(item.expiresAt),
  ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
  ...(typeof item.lastUsedAt === 'string' ? { lastUsedAt: item.lastUsedAt } : {}),
  ...(typeof item.rateLimit === 'number' ? { rateLimit: item.rateLimit } : {}),
  windowStart: Number(item.windowStart),
  windowCount: Number(item.windowCount),
  identitySignature: text(item.identitySignature),
  ...(item.team === undefined ? {} : { team: tokenTeamOf(item.team) }),
  ...(typeof item.createdBy === 'string' ? { createdBy: item.createdBy } : {}),
});

/** Stores a new key's record. The caller made the key, keeps the plaintext and signed the identity. */
export async function putApiKey(record: KeyRecord): Promise<void> {
  // A put whose response was lost and that the SDK retried finds its own item: that is a success.
  await putNew(
    (input) => db.send(new PutCommand(input)),
    { TableName: table(), Item: { ...record } },
    'keyHash',
  );
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

/**
 * The items of the given digests, in the order given. The owner index holds keys only, so a listing
 * reads its page's items here (a page is at most 100 keys: one BatchGetItem). A key deleted in
 * between (expired, by TTL) is left out.
 */
async function itemsOf(keyHashes: readonly string[]): Promise<Record<string, unknown>[]> {
  const items = await batchGet(
    table(),
    keyHashes.map((keyHash) => ({ keyHash })),
  );
  const found = new Map(items.map((item) => [String(item.keyHash), item]));
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
  const result = await listKeyItems(userId, page);
  return { items: result.items.map(toStoredKey), nextCursor: result.nextCursor };
}

/** A team's tokens as stored, newest first (they are listed under the team's id). */
export async function listTokenRecords(teamId: string, page: PageRequest): Promise<Page<KeyRecord>> {
  const result = await listKeyItems(teamId, page);
  return { items: result.items.map((item) => keyRecordOf(item)), nextCursor: result.nextCursor };
}

async function listKeyItems(userId: string, page: PageRequest): Promise<Page<Record<string, unknown>>> {
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
  return { items, nextCursor: result.nextCursor };
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

/**
 * Revokes every key the owner index lists under an owner (a deleted team's tokens), but those in
 * `done` (revoked by an earlier call); the ids of those it revoked. The index can lag: a key made a
 * moment ago may not be listed yet (the caller compares).
 */
export async function revokeAllKeysOf(
  userId: string,
  revokedAt: string,
  done: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const revoked = new Set<string>();
  await forEachPage(
    {
      TableName: table(),
      IndexName: byOwner.name,
      KeyConditionExpression: '#owner = :userId',
      ExpressionAttributeNames: { '#owner': byOwner.partitionKey },
      ExpressionAttributeValues: { ':userId': userId },
    },
    async (page) => {
      for (const item of page.items) {
        if (done.has(String(item.keyId))) continue;
        await revokeApiKeyByHash(String(item.keyHash), revokedAt);
        revoked.add(String(item.keyId));
      }
    },
  );
  return revoked;
}
