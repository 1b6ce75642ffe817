import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import {
  OBSOLETE_LIST_ATTRIBUTES,
  removeObsoleteListAttributes,
} from '#shared/db/deployments/maintenance.ts';
import { tableName } from '#shared/db/tables.ts';

// `npm start` on a `.data` directory kept from an older version: its deployments may carry the
// attributes that the per-filter list indexes were keyed on. Those indexes are gone (every list now
// reads the table or `byProject`, keyed on what every deployment always had), so nothing is missing;
// the leftovers only make each item and each of its writes larger. One pass at start removes them.
// A Scan, never on a request path (no function is granted Scan); optional on a deployed stack
// (docs/upgrading-indexes.md).

/** Removes the obsolete list attributes from every deployment that has them; returns how many it changed. */
export async function backfillDeployments(): Promise<number> {
  let updated = 0;
  let startKey: Record<string, unknown> | undefined;
  const names = Object.fromEntries(OBSOLETE_LIST_ATTRIBUTES.map((name, index) => [`#o${index}`, name]));
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new ScanCommand({
        TableName: tableName('deployments'),
        FilterExpression: Object.keys(names)
          .map((name) => `attribute_exists(${name})`)
          .join(' OR '),
        ExpressionAttributeNames: names,
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of Items) if (await removeObsoleteListAttributes(item)) updated += 1;
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return updated;
}
