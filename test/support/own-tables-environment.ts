import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import { localClient } from '#infra/local/dynamodb-local.ts';
import { type TableKey, tableKeys, tables } from '#shared/db/tables.ts';
import { createTablesOf, ownTableNames, workerStore } from './own-tables.ts';

// The test environment of every file: Jest's Node environment, with tables of the file's own in its
// worker's DynamoDB Local. Each table's variable names the file's copy (in the file's own process.env),
// made before the file loads and dropped when it has ended, after its last hook. So no file sees
// another's items, counts them in a listing, or reads them off a stream: the local stream poller,
// the local IAM and every store module find a table by that variable. The name is the file's with a
// digest of its path, unique among the files of a run.
//
// Dropped, not kept: DynamoDB Local holds every table of the run in one SQLite database, and grows
// slower as they accumulate (5,000 writes and queries took 3.7 CPU-s on 13 tables, 5.2 on 780; a run
// that kept every file's had about 2,000 by its end, and a JVM that idles at 0.12 of a core).

export default class OwnTablesEnvironment extends TestEnvironment {
  private readonly names: Record<TableKey, string>;
  private readonly endpoint: string;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.names = ownTableNames(context.testPath);
    const env = this.global.process.env;
    // The worker's own store, for the file and for what it starts with the worker's environment.
    this.endpoint = workerStore(process.env, env.DYNAMODB_ENDPOINT ?? '');
    env.DYNAMODB_ENDPOINT = this.endpoint;
    process.env.DYNAMODB_ENDPOINT = this.endpoint;
    for (const key of tableKeys) env[tables[key].envVar] = this.names[key];
  }

  override async setup(): Promise<void> {
    await super.setup();
    await createTablesOf(this.global.process.env, this.endpoint);
  }

  override async teardown(): Promise<void> {
    const client = localClient(this.endpoint);
    try {
      await Promise.all(
        Object.values(this.names).map((TableName) =>
          client.send(new DeleteTableCommand({ TableName })).catch(() => undefined),
        ),
      );
    } finally {
      client.destroy();
      await super.teardown();
    }
  }
}
