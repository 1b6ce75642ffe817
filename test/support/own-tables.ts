import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { localClient } from '../../infra/local/dynamodb-local.ts';
import { createTableAs } from '../../infra/local/ensure-tables.ts';
import { tableKeys, tables } from '../../shared/db/tables.ts';

// Every test file gets tables of its own (Jest's setupFilesAfterEnv: this runs in the file's own
// module registry and process.env, before the file loads). Each table's variable names the file's
// copy, made before the file's own hooks run. So no file sees another's items, counts them in a
// listing, or reads them off a stream: the local stream poller, the local IAM and every store module
// find a table by that variable. The name is the file's with a digest of its path, unique among the
// files of a run. The tables are not dropped: a file's own afterAll hooks run after this module's
// (Jest runs them in the order they were declared) and may still use them, and the run's DynamoDB
// Local keeps them in memory until it stops (fifteen tables take about 0.1 s to make; 3,000 of
// them made no write slower, measured).

const testPath = expect.getState().testPath ?? '';
const digest = createHash('sha256').update(testPath).digest('hex').slice(0, 8);
const prefix = `${basename(testPath, '.test.ts').slice(0, 40)}-${digest}-`;
for (const key of tableKeys) process.env[tables[key].envVar] = `${prefix}${tables[key].localName}`;

const endpoint = process.env.DYNAMODB_ENDPOINT ?? '';
const names = tableKeys.map((key) => ({ key, name: `${prefix}${tables[key].localName}` }));

/** Makes this file's tables in the DynamoDB Local at `endpoint` (a suite's own store makes them too). */
export async function createOwnTables(endpoint: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await Promise.all(names.map(({ key, name }) => createTableAs(client, tables[key], name)));
  } finally {
    client.destroy();
  }
}

beforeAll(() => createOwnTables(endpoint));
