import { QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { updateExpression } from '#shared/db/update-expression.ts';
import { type Deployment, table, toDeployment } from './deployments.ts';

// What no request path uses: the local builder's work list, and the backfill that brings
// deployments written by an older version up to date (infra/local/backfill-deployments.ts).

/**
 * Attributes older versions wrote for indexes that are gone (one per list filter, and the builder's
 * `unfinished`): nothing reads them, and each makes the item, and every write of it, larger.
 */
export const OBSOLETE_LIST_ATTRIBUTES = [
  'projectStatus',
  'projectBranch',
  'projectBranchStatus',
  'ownerStatus',
  'ownerBranch',
  'ownerBranchStatus',
  'activeStatus',
] as const;

/**
 * Removes the obsolete list attributes from a deployment written by an older version; false when it
 * had none (or is gone). Touches nothing else, so it cannot undo a transition that ran meanwhile.
 */
export async function removeObsoleteListAttributes(item: Record<string, unknown>): Promise<boolean> {
  const present = OBSOLETE_LIST_ATTRIBUTES.filter((name) => item[name] !== undefined);
  if (present.length === 0) return false;
  const removed = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId: String(item.ownerId), id: String(item.id) },
        ...updateExpression({ remove: present }),
        ConditionExpression: 'attribute_exists(id)',
      }),
    ),
  );
  return !removed.failed;
}

/**
 * Every unfinished deployment in one state, oldest first, of every owner (a Scan of the table), or
 * of one (a Query of their partition: tests share a store): the local builder's work list, on a
 * local store. Not a request path, and no function is granted Scan: a deployed stack has no builder.
 */
export async function listUnfinished(
  status: 'queued' | 'building',
  ownerId?: string,
): Promise<(Deployment & { ownerId: string })[]> {
  const found: (Deployment & { ownerId: string })[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const input = {
      TableName: table(),
      FilterExpression: '#status = :status',
      ExpressionAttributeNames: {
        '#status': 'status',
        ...(ownerId === undefined ? {} : { '#owner': 'ownerId' }),
      },
      ExpressionAttributeValues: {
        ':status': status,
        ...(ownerId === undefined ? {} : { ':owner': ownerId }),
      },
      ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
    };
    const { Items = [], LastEvaluatedKey } = await db.send(
      ownerId === undefined
        ? new ScanCommand(input)
        : new QueryCommand({ ...input, KeyConditionExpression: '#owner = :owner' }),
    );
    found.push(...Items.map((item) => ({ ...toDeployment(item), ownerId: String(item.ownerId) })));
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  // Ids sort by creation time.
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
