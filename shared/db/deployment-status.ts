import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { type Deployment, table, toDeployment } from './deployments.ts';

// The reads of those who watch a deployment change (a wait, a followed log): consistent, so that a
// change is seen on the first read after it was written, never a read later.

/** One of the owner's deployments as it is now, or undefined when it is not (or no longer) there. */
export async function readDeploymentNow(ownerId: string, id: string): Promise<Deployment | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: { ownerId, id }, ConsistentRead: true }),
  );
  return Item ? toDeployment(Item) : undefined;
}
