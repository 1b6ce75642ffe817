import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { conditionally } from './conditional.ts';
import { listKeys } from './deployment-writes.ts';
import { type Deployment, statusOf, table, toDeployment } from './deployments.ts';
import { indexes } from './tables.ts';
import { updateExpression } from './update-expression.ts';

// What no request path uses: the local builder's work list, and the backfill that brings
// deployments written by an older version up to date (infra/local/backfill-deployments.ts).

/**
 * Gives a deployment written before the list indexes existed its list keys and, while unfinished,
 * its place in the builder's work list. Conditional on its status as read, so a transition that
 * gets there first keeps the keys it wrote. False when there was nothing to do.
 */
export async function addMissingListKeys(item: Record<string, unknown>): Promise<boolean> {
  const status = statusOf(item.status);
  const ownerId = String(item.ownerId);
  const keys = listKeys(ownerId, String(item.projectId), String(item.branch), status);
  const unfinished = status === 'queued' || status === 'building';
  const added = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id: String(item.id) },
        ...updateExpression({
          set: { ...keys, ...(unfinished ? { activeStatus: status } : {}) },
          names: { '#status': 'status' },
          values: { ':status': status },
        }),
        ConditionExpression:
          'attribute_exists(id) AND attribute_not_exists(ownerStatus) AND #status = :status',
      }),
    ),
  );
  return !added.failed;
}

/**
 * Every unfinished deployment in one state, oldest first, of every owner (or of one: tests share a
 * store): the local builder's work list, read from the sparse `unfinished` index. Not a request path.
 */
export async function listUnfinished(
  status: 'queued' | 'building',
  ownerId?: string,
): Promise<(Deployment & { ownerId: string })[]> {
  const found: (Deployment & { ownerId: string })[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: table(),
        IndexName: indexes.deployments.unfinished.name,
        KeyConditionExpression: '#active = :status',
        ExpressionAttributeNames: { '#active': indexes.deployments.unfinished.partitionKey },
        ...(ownerId === undefined ? {} : { FilterExpression: 'ownerId = :owner' }),
        ExpressionAttributeValues: {
          ':status': status,
          ...(ownerId === undefined ? {} : { ':owner': ownerId }),
        },
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    found.push(...Items.map((item) => ({ ...toDeployment(item), ownerId: String(item.ownerId) })));
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}
