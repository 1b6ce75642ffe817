import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '#shared/runtime/clock.ts';
import { db } from './client.ts';
import { forEachPage } from './pages.ts';

/** Items one purge pass reads, and deletes at once. */
const PURGE_PAGE = 25;

/**
 * Deletes every item of one partition (`partitionKey` = `value`; items told apart by `sk`), a page at
 * a time, until none is left or `until` (epoch ms) has passed; whether none is left. Idempotent: run
 * again, it deletes what is left.
 */
export function purgePartition(
  tableName: string,
  partitionKey: string,
  value: string,
  until: number,
): Promise<boolean> {
  return forEachPage(
    {
      TableName: tableName,
      KeyConditionExpression: '#partition = :value',
      ExpressionAttributeNames: { '#partition': partitionKey },
      ExpressionAttributeValues: { ':value': value },
      ProjectionExpression: '#partition, sk',
      Limit: PURGE_PAGE,
    },
    async ({ items }) => {
      await Promise.all(
        items.map((item) =>
          db.send(new DeleteCommand({ TableName: tableName, Key: { [partitionKey]: value, sk: item.sk } })),
        ),
      );
      return clock.now() < until;
    },
  );
}
