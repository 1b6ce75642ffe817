import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { localClient } from '#infra/local/dynamodb-local.ts';
import { createTableAs } from '#infra/local/ensure-tables.ts';
import { type TableKey, tableKeys, tables } from '#shared/db/tables.ts';

// The tables of one test file (test/support/own-tables-environment.ts makes and drops them).

/** The run's DynamoDB Locals, one per worker, as a comma list of endpoints (test/support/global-setup.ts). */
export const STORES_VARIABLE = 'PLATFORM_TEST_STORES';

/**
 * The store of this Jest worker: the run's `JEST_WORKER_ID`-th (workers are numbered from 1, and a
 * worker replaced for its memory keeps its number), else `fallback`.
 */
export function workerStore(env: NodeJS.ProcessEnv, fallback: string): string {
  const stores = (env[STORES_VARIABLE] ?? '').split(',').filter(Boolean);
  const worker = Number(env.JEST_WORKER_ID ?? '1');
  return stores[(Math.max(1, worker) - 1) % Math.max(1, stores.length)] ?? fallback;
}

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
