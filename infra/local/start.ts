import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type DynamoDbLocal, freePort, localClient, startDynamoDbLocal } from './dynamodb-local.ts';
import { ensureTables } from './ensure-tables.ts';
import { localEnvironment } from './environment.ts';

// `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT names one), the tables, then both API
// groups on one port through the local gateway. Ctrl-C stops everything, Java included.

const port = Number(process.env.PORT ?? 3000);
const inMemory = process.argv.includes('--in-memory');
const dataDir = resolve(process.env.DATA_DIR ?? '.data');

async function startStore(): Promise<{ endpoint: string; dynamo?: DynamoDbLocal }> {
  const existing = process.env.DYNAMODB_ENDPOINT;
  if (existing) return { endpoint: existing };
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const dynamo = await startDynamoDbLocal({ port: await freePort(), ...(inMemory ? {} : { dataDir }) });
  return { endpoint: dynamo.endpoint, dynamo };
}

async function main(): Promise<void> {
  const { endpoint, dynamo } = await startStore();
  const stop = async (code: number): Promise<never> => {
    await dynamo?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    Object.assign(process.env, localEnvironment(endpoint));
    const client = localClient(endpoint);
    await ensureTables(client);
    client.destroy();
    // Imported only now: handler modules read their settings when they load.
    const { createGateway } = await import('./gateway.ts');
    const { ensureAdmin } = await import('../ensure-admin.ts');
    const admin = await ensureAdmin(
      process.env.PLATFORM_ADMIN_EMAIL ?? 'admin@localhost.test',
      process.env.PLATFORM_ADMIN_PASSWORD,
    );
    const server = await createGateway();
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(port, ready);
    });
    console.log(
      `DynamoDB:    ${endpoint}${dynamo ? (inMemory ? ' (in memory)' : ` (data in ${dataDir})`) : ''}`,
    );
    console.log(`base_url:    http://localhost:${port}/v1`);
    console.log(`backend_url: http://localhost:${port}`);
    if (admin.generatedPassword) {
      console.log(`admin:       ${admin.email} / ${admin.generatedPassword}  (generated; shown once)`);
    } else {
      console.log(`admin:       ${admin.email}${admin.created ? ' (created)' : ''}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
