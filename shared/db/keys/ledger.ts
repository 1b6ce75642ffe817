import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally, transactWriteConditions } from '#shared/db/conditional.ts';
import { tableName } from '#shared/db/tables.ts';
import type { TeamOpenCheck } from '#shared/db/teams/teams.ts';

// The keys a user made with POST /keys, counted so that their number has a ceiling
// (shared/domain/key-cap.ts): one ledger item per user, in the key table beside the keys it counts
// (so the functions that write and revoke keys keep it with the grants they have). Its partition
// key is `ledger#<userId>`, which no key's digest (64 hex digits) can equal; it has no `userId`, so
// the owner index never lists it, and no expiry, so admission can never admit it.
//
// A new key and the ledger that counts it are written in one transaction, on condition that the
// ledger is still the version that was read: of any number of concurrent creations, only as many as
// the ceiling allows get in. Entries carry their key's expiry, so expired keys drop out when the
// ledger is next written; a revocation removes its entry (and moves the version on, so that a
// creation that read the entry cannot write it back).

const table = (): string => tableName('apiKeys');
const ledgerKey = (userId: string) => ({ keyHash: `ledger#${userId}` });

export interface KeyLedger {
  /** 0 while the user has none. */
  version: number;
  /** Key id → its expiry in epoch seconds. */
  entries: Record<string, number>;
}

export async function readKeyLedger(userId: string): Promise<KeyLedger> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: ledgerKey(userId), ConsistentRead: true }),
  );
  const entries: Record<string, number> = {};
  for (const [keyId, expiresAt] of Object.entries(
    (Item?.entries as Record<string, unknown> | undefined) ?? {},
  )) {
    if (typeof expiresAt === 'number') entries[keyId] = expiresAt;
  }
  return { version: typeof Item?.version === 'number' ? Item.version : 0, entries };
}

/**
 * Puts a new key item (`keyItem`, id `keyId`) and the ledger with `entries` (the new key's included)
 * in one transaction, if the ledger is still at `readVersion` ('moved' when another write got there
 * first) and, for a team's token, its team is open (`teamOpen`; 'teamClosed' otherwise). 'stored'
 * also when the transaction was this call's own, applied and sent again.
 */
export async function putKeyWithLedger(
  userId: string,
  readVersion: number,
  entries: Record<string, number>,
  keyId: string,
  keyItem: Record<string, unknown>,
  teamOpen?: TeamOpenCheck,
): Promise<'stored' | 'moved' | 'teamClosed'> {
  const refused = await transactWriteConditions(
    () => ({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: { ...ledgerKey(userId), version: readVersion + 1, entries },
            ConditionExpression: readVersion === 0 ? 'attribute_not_exists(keyHash)' : 'version = :read',
            ...(readVersion === 0 ? {} : { ExpressionAttributeValues: { ':read': readVersion } }),
          },
        },
        { Put: { TableName: table(), Item: keyItem, ConditionExpression: 'attribute_not_exists(keyHash)' } },
        ...(teamOpen ? [teamOpen] : []),
      ],
    }),
    [0, 2],
  );
  if (refused === undefined) return 'stored';
  if (refused === 2) return 'teamClosed';
  // A transaction applied whose answer was lost fails its own condition when sent again: the ledger
  // then already counts this call's key, whose id is fresh.
  return (await readKeyLedger(userId)).entries[keyId] !== undefined ? 'stored' : 'moved';
}

/** Takes a revoked key off its owner's ledger; nothing to do for a key the ledger does not count. */
export async function releaseFromLedger(userId: string, keyId: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: ledgerKey(userId),
        UpdateExpression: 'REMOVE entries.#keyId SET version = version + :one',
        ConditionExpression: 'attribute_exists(entries.#keyId)',
        ExpressionAttributeNames: { '#keyId': keyId },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    ),
  );
}
