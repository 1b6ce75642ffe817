import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

// A second floor for the first invocation: the DynamoDB calls a keyed request makes, through the
// SDK as anyone would bundle it, and nothing else. The bare handler (bare-handler.ts) makes one
// GetItem; GET /v1/projects/{id} makes two calls (its key counted, then the project) and
// POST /v1/deployments three (counted, the project read consistently, the deployment put on
// condition). Each operation's first use has a cost of its own in the SDK (its schema, its
// serializer), which a floor of one GetItem leaves out: against this one, what remains is ours.

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const { API_KEYS_TABLE, PROJECTS_TABLE, DEPLOYMENTS_TABLE } = process.env;

export interface SameCallsEvent {
  /** A key record of the bench's own (counted as admission counts, created on first use). */
  keyHash: string;
  ownerId: string;
  projectId: string;
  /** Set: POST /v1/deployments's calls, putting a deployment with this id; unset: GET /v1/projects/{id}'s. */
  deploymentId?: string;
}

export const handler = async (event: SameCallsEvent) => {
  const now = Math.floor(Date.now() / 1000);
  await db.send(
    new UpdateCommand({
      TableName: API_KEYS_TABLE,
      Key: { keyHash: event.keyHash },
      UpdateExpression: 'SET #window = :window ADD #count :one',
      ExpressionAttributeNames: { '#window': 'benchWindow', '#count': 'benchCount' },
      ExpressionAttributeValues: { ':window': now - (now % 60), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const { Item } = await db.send(
    new GetCommand({
      TableName: PROJECTS_TABLE,
      Key: { ownerId: event.ownerId, id: event.projectId },
      ConsistentRead: event.deploymentId !== undefined,
    }),
  );
  if (!Item) return { statusCode: 404, body: 'null' };
  if (event.deploymentId === undefined) return { statusCode: 200, body: JSON.stringify(Item) };
  const deployment = {
    ownerId: event.ownerId,
    id: event.deploymentId,
    projectId: event.projectId,
    status: 'queued',
    createdAt: new Date().toISOString(),
  };
  await db.send(
    new PutCommand({
      TableName: DEPLOYMENTS_TABLE,
      Item: deployment,
      ConditionExpression: 'attribute_not_exists(id)',
    }),
  );
  return { statusCode: 201, body: JSON.stringify(deployment) };
};
