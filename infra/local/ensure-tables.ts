import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { type TableDefinition, tables } from '#shared/db/tables.ts';

// Creates the tables that are missing, from the same declaration the CDK stack uses.

function keySchema(partitionKey: string, sortKey?: string) {
  return [
    { AttributeName: partitionKey, KeyType: 'HASH' as const },
    ...(sortKey ? [{ AttributeName: sortKey, KeyType: 'RANGE' as const }] : []),
  ];
}

function createTableInput(name: string, table: TableDefinition): CreateTableCommandInput {
  const indexes = Object.entries(table.indexes ?? {});
  const attributes = new Set([
    table.partitionKey,
    table.sortKey,
    ...indexes.flatMap(([, i]) => [i.partitionKey, i.sortKey]),
  ]);
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: keySchema(table.partitionKey, table.sortKey),
    AttributeDefinitions: [...attributes]
      .filter((attribute): attribute is string => attribute !== undefined)
      .map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    ...(indexes.length > 0
      ? {
          GlobalSecondaryIndexes: indexes.map(([IndexName, index]) => ({
            IndexName,
            KeySchema: keySchema(index.partitionKey, index.sortKey),
            Projection: { ProjectionType: 'ALL' as const },
          })),
        }
      : {}),
  };
}

async function exists(client: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/** Creates every declared table that does not exist yet, under its local name. */
export async function ensureTables(client: DynamoDBClient): Promise<string[]> {
  const createdNames: string[] = [];
  for (const table of Object.values(tables)) {
    if (await exists(client, table.localName)) continue;
    try {
      await client.send(new CreateTableCommand(createTableInput(table.localName, table)));
      createdNames.push(table.localName);
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error; // created meanwhile: fine
    }
  }
  return createdNames;
}
