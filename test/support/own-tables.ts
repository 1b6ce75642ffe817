import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { localClient } from '#infra/local/dynamodb-local.ts';
import { createTableAs } from '#infra/local/ensure-tables.ts';
import { type TableKey, tableKeys, tables } from '#shared/db/tables.ts';

// The tables of one test file (test/support/own-tables-environment.ts makes and drops them).

/** A file's name for each table, given its path. */
export function ownTableNames(testPath: string): Record<TableKey, string> {
  const digest = createHash('sha256').update(testPath).digest('hex').slice(0, 8);
  const prefix = `${basename(testPath, '.test.ts').slice(0, 40)}-${digest}-`;
  return Object.fromEntries(tableKeys.map((key) => [key, `${prefix}${tables[key].localName}`])) as Record<
    TableKey,
    string
  >;
}

/** Makes the tables the variables of `env` name, in the DynamoDB Local at `endpoint`. */
export async function createTablesOf(env: NodeJS.ProcessEnv, endpoint: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await Promise.all(
      tableKeys.map((key) => createTableAs(client, tables[key], env[tables[key].envVar] ?? '')),
    );
  } finally {
    client.destroy();
  }
}
