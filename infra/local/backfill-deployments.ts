import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { addMissingListKeys } from '#shared/db/deployment-maintenance.ts';
import { tableName } from '#shared/db/tables.ts';

// `npm start` on a `.data` directory kept from before the deployment lists had indexes: those
// deployments lack the attributes the indexes are keyed on, so a filtered list or the local builder
// would never see them. One pass at start gives them their keys. A Scan, on a local store, never on
// a request path (no function is granted Scan).

/** Adds the list keys every older deployment lacks; returns how many it updated. */
export async function backfillDeployments(): Promise<number> {
  let updated = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new ScanCommand({
        TableName: tableName('deployments'),
        FilterExpression: 'attribute_not_exists(ownerStatus)',
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of Items) if (await addMissingListKeys(item)) updated += 1;
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return updated;
}
