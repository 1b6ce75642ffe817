import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  type Projection as DynamoProjection,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { indexUpgrades, type RetiredIndex } from '#infra/data/index-upgrades.ts';
import { type Projection, type TableDefinition, tableKeys, tables } from '#shared/db/tables.ts';

// Creates the tables that are missing, from the same declaration the CDK stack uses.

function keySchema(partitionKey: string, sortKey?: string) {
  return [
    { AttributeName: partitionKey, KeyType: 'HASH' as const },
    ...(sortKey ? [{ AttributeName: sortKey, KeyType: 'RANGE' as const }] : []),
  ];
}

function projectionOf(projection: Projection = 'ALL'): DynamoProjection {
  return typeof projection === 'string'
    ? { ProjectionType: projection }
    : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection] };
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
    ...(table.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream } } : {}),
    ...(indexes.length > 0
      ? {
          GlobalSecondaryIndexes: indexes.map(([IndexName, index]) => ({
            IndexName,
            KeySchema: keySchema(index.partitionKey, index.sortKey),
            Projection: projectionOf(index.projection),
          })),
        }
      : {}),
  };
}

/** The names of a table's indexes and whether it streams, or undefined when the table does not exist. */
async function describe(
  client: DynamoDBClient,
  name: string,
): Promise<{ indexes: string[]; streaming: boolean } | undefined> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    return {
      indexes: (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName ?? ''),
      streaming: Table?.StreamSpecification?.StreamEnabled === true,
    };
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/**
 * Brings the indexes of a table made by an older version (a `.data` kept across upgrades) to the
 * declaration: drops the retired ones (DynamoDB Local, unlike CloudFormation, takes them in one go)
 * and adds the missing ones.
 */
async function addMissingIndexes(
  client: DynamoDBClient,
  table: TableDefinition,
  retiredIndexes: readonly RetiredIndex[],
  existing: string[],
) {
  const wanted = createTableInput(table.localName, table);
  for (const retired of retiredIndexes) {
    if (!existing.includes(retired.name)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: table.localName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: retired.name } }],
      }),
    );
  }
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.includes(index.IndexName ?? '')) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: table.localName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}

/** Creates one declared table under another name (a suite that needs a table of its own). */
export async function createTableAs(
  client: DynamoDBClient,
  table: TableDefinition,
  name: string,
): Promise<void> {
  await client.send(new CreateTableCommand(createTableInput(name, table)));
}

/** Creates every declared table that does not exist yet, under its local name, and adds missing indexes. */
export async function ensureTables(client: DynamoDBClient): Promise<string[]> {
  const createdNames: string[] = [];
  for (const key of tableKeys) {
    const table: TableDefinition = tables[key];
    const existing = await describe(client, table.localName);
    if (existing) {
      await addMissingIndexes(client, table, indexUpgrades[key]?.retired ?? [], existing.indexes);
      if (table.stream && !existing.streaming) {
        // A table kept in `.data` from before it streamed its changes.
        await client.send(
          new UpdateTableCommand({
            TableName: table.localName,
            StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream },
          }),
        );
      }
      continue;
    }
    try {
      await client.send(new CreateTableCommand(createTableInput(table.localName, table)));
      createdNames.push(table.localName);
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error; // created meanwhile: fine
    }
  }
  return createdNames;
}
