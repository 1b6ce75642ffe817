import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reloadSettings } from '#shared/runtime/config.ts';
import { LOCAL_KEY_VARIABLE } from '#shared/runtime/envelope.ts';
import { secrets } from '#shared/runtime/secrets.ts';
import { freePort, localClient } from './dynamodb-local.ts';
import { ensureTables } from './ensure-tables.ts';
import { localEnvironment } from './environment.ts';
import { type SupervisedStore, superviseDynamoDbLocal } from './store-supervisor.ts';

// `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT names one), kept running by a supervisor,
// the tables, then both API groups on one port through the local gateway. Ctrl-C stops
// everything, Java included.

const port = Number(process.env.PORT ?? 3000);
const inMemory = process.argv.includes('--in-memory');
const dataDir = resolve(process.env.DATA_DIR ?? '.data');

async function createTables(endpoint: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await ensureTables(client);
  } finally {
    client.destroy();
  }
}

/**
 * The key-signing seed kept beside the data, made on first start: keys issued by one run are signed
 * by it and must still be genuine in the next (a new seed would log everyone out).
 */
function keptSigningSeed(dir: string): string {
  return keptRandom(dir, 'key-signing-seed');
}

/** 32 random bytes in hex, kept in `dir/name` (made on first start, readable by the owner only). */
function keptRandom(dir: string, name: string): string {
  const file = join(dir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  let store: SupervisedStore | undefined;
  // Set once the admin exists: a store restarted in memory has lost it, and the credentials
  // already printed should keep working.
  let restoreAdmin: (() => Promise<unknown>) | undefined;
  let builder: { stop(): Promise<void> } | undefined;
  let webhookQueue: { stop(): void } | undefined;
  let streamPoller: { stop(): Promise<void> } | undefined;
  let schedules: { stop(): Promise<void> } | undefined;
  const stop = async (code: number): Promise<never> => {
    await schedules?.stop();
    await streamPoller?.stop();
    await webhookQueue?.stop();
    await builder?.stop();
    await store?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    let endpoint = process.env.DYNAMODB_ENDPOINT;
    if (endpoint) {
      await createTables(endpoint);
    } else {
      if (!inMemory) {
        mkdirSync(dataDir, { recursive: true });
        process.env[secrets.keySigningSeed] ??= keptSigningSeed(dataDir);
        // Environment variables are stored sealed with it: a new one would make them unreadable.
        process.env[LOCAL_KEY_VARIABLE] ??= keptRandom(dataDir, 'environment-sealing-key');
      }
      store = await superviseDynamoDbLocal({
        port: await freePort(),
        ...(inMemory ? {} : { dataDir }),
        prepare: async (storeEndpoint) => {
          await createTables(storeEndpoint);
          await restoreAdmin?.();
        },
        onGiveUp: (reason) => {
          console.error(reason.message);
          void stop(1);
        },
      });
      endpoint = store.endpoint;
    }
    Object.assign(process.env, localEnvironment(endpoint));
    reloadSettings();
    // The service is loaded only now, with the store up and its settings read again: nothing of it
    // runs, and nothing it would log appears, before the store answers.
    const { createGateway, LISTEN_BACKLOG } = await import('./gateway.ts');
    const { ensureAdmin } = await import('../ensure-admin.ts');
    const adminEmail = process.env.PLATFORM_ADMIN_EMAIL ?? 'admin@localhost.test';
    const admin = await ensureAdmin(adminEmail, process.env.PLATFORM_ADMIN_PASSWORD);
    const adminPassword = process.env.PLATFORM_ADMIN_PASSWORD ?? admin.generatedPassword;
    if (store && inMemory && adminPassword) restoreAdmin = () => ensureAdmin(adminEmail, adminPassword);
    const { backfillDeployments } = await import('./backfill-deployments.ts');
    const backfilled = await backfillDeployments();
    // Webhook deliveries: the stack's delivery code on an in-process queue with the same schedule.
    const { startLocalWebhookQueue } = await import('./webhook-queue.ts');
    const { deliverySettings } = await import('#shared/webhooks/settings.ts');
    const delivery = deliverySettings();
    webhookQueue = startLocalWebhookQueue(delivery);
    // The stream consumers (shared/consumers.ts), fed from DynamoDB Local's streams as Lambda would.
    const { startStreamPoller } = await import('./stream-poller.ts');
    streamPoller = await startStreamPoller(endpoint);
    // The scheduled functions (custom domains' background checks), as EventBridge would run them.
    const { scheduleIntervalMs, startLocalSchedules } = await import('./schedules.ts');
    schedules = await startLocalSchedules();
    const domains = (await import('#shared/domain/custom-domains/settings.ts')).domainSettings();
    const server = await createGateway();
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(port, LISTEN_BACKLOG, ready);
    });
    console.log(
      `DynamoDB:    ${endpoint}${store ? (inMemory ? ' (in memory)' : ` (data in ${dataDir})`) : ''}`,
    );
    console.log(`base_url:    http://localhost:${port}/v1`);
    console.log(`backend_url: http://localhost:${port}`);
    if (backfilled > 0) console.log(`deployments: ${backfilled} from an older version indexed for the lists`);
    // On unless LOCAL_BUILDER=0: moves queued deployments to building and ready, as a build system would.
    const { localBuilderSettings, startLocalBuilder } = await import('./builder.ts');
    const builderSettings = localBuilderSettings();
    if (builderSettings) {
      builder = startLocalBuilder(builderSettings);
      console.log(
        `builder:     on (queued → building → ready, ${builderSettings.delayMs} ms a step; LOCAL_BUILDER=0 turns it off)`,
      );
    } else {
      console.log(
        'builder:     off (LOCAL_BUILDER=0): deployments stay queued until a status report moves them',
      );
    }
    console.log(
      `webhooks:    ${delivery.policy.allowPrivateTargets ? 'http and private receivers allowed' : 'https to public addresses only (WEBHOOKS_ALLOW_PRIVATE_TARGETS=1 allows http and loopback)'}, retry unit ${delivery.retryBaseSeconds} s`,
    );
    console.log(
      `domains:     DNS via ${domains.dnsServers?.join(', ') ?? "the system's resolver"}, CNAME target ${domains.target}, background checks every ${scheduleIntervalMs() / 1000} s`,
    );
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
