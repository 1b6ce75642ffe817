import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

// The floor the bench compares every function with: the DynamoDB clients as anyone would bundle
// them (the SDK's default credential chain included), built at load, and one GetItem per
// invocation, the projects table's, as GET /v1/projects/{id} reads it. No middleware, no
// validation, no error shaping.

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TableName = process.env.PROJECTS_TABLE;

export const handler = async (event: { ownerId: string; id: string }) => {
  const { Item } = await db.send(
    new GetCommand({ TableName, Key: { ownerId: event.ownerId, id: event.id } }),
  );
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
};
