import { Agent } from 'node:http';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { installAuditStamp } from '#shared/db/audit/stamp.ts';
import { DeadlineBoundHandler } from '#shared/runtime/deadline-bound-handler.ts';
import { variable } from '#shared/runtime/variables.ts';
import { recordStoreCall } from './store-timing.ts';

// The DynamoDB clients, one set per container, made on the first store call (not when the module
// loads, so a test that points DYNAMODB_ENDPOINT elsewhere needs no import of its own after it).
// DYNAMODB_ENDPOINT, read at each call (shared/runtime/variables.ts): set, every call goes there.

/**
 * Concurrent calls the local gateway may have in flight: it runs at most this many invocations at
 * once (one call each at a time), so no call ever waits for a socket. The SDK's timers start when a
 * call is made, not when it gets a socket; a queue in front of the sockets would count against them.
 */
export const LOCAL_MAX_SOCKETS = 16;

/**
 * Each attempt's limits. DynamoDB answers in milliseconds; a cold call adds a TLS handshake: a
 * second is far above both, and still leaves room for a retry and the next call inside the
 * request's deadline (shared/runtime/deadline.ts). DynamoDB Local, a JVM sharing a laptop with everything
 * else, gets two. `throwOnRequestTimeout`: without it the handler only logs a warning when
 * `requestTimeout` passes, and the call waits for as long as the store does.
 */
const attemptLimits = (endpoint: string | undefined) => ({
  connectionTimeout: 1_000,
  requestTimeout: endpoint ? 2_000 : 1_000,
  throwOnRequestTimeout: true,
});

function documentClient(
  endpoint: string | undefined,
  requestHandler: DeadlineBoundHandler,
  maxAttempts: number,
): DynamoDBDocumentClient {
  const clientConfig: DynamoDBClientConfig = {
    ...(endpoint
      ? {
          endpoint,
          region: variable('AWS_REGION') ?? 'local',
          // DynamoDB Local keeps one database per access key and region; every local client uses these.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts,
    requestHandler,
  };
  const client = new DynamoDBClient(clientConfig);
  // The whole call as the request waits for it (retries and their back-off included), for its metrics.
  client.middlewareStack.add(
    (next) => async (args) => {
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        recordStoreCall(performance.now() - started);
      }
    },
    { step: 'initialize', name: 'storeTiming' },
  );
  const documents = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  // Every change's write carries who made it, or its event (shared/db/audit/stamp.ts).
  installAuditStamp(documents);
  return documents;
}

export interface StoreClients {
  /** The endpoint they call: undefined for the region's DynamoDB. */
  endpoint: string | undefined;
  /** For reads and for writes that are safe to repeat: one retry on a transient failure. */
  db: DynamoDBDocumentClient;
  /**
   * For the rate counters: no retry. A counting write whose response was lost may still have been
   * applied, and repeating it would count one request twice; the request fails instead (a 500 that
   * still carries the rate-limit headers) and the client decides whether to try again.
   */
  countingDb: DynamoDBDocumentClient;
}

function makeClients(endpoint: string | undefined): StoreClients {
  // One handler, so both clients share one keep-alive pool: a cold start opens one connection, not
  // two. In Lambda a container serves one request at a time, and the SDK's default pool is plenty;
  // the local gateway serves many at once, with as many sockets as it runs invocations.
  const requestHandler = new DeadlineBoundHandler({
    ...attemptLimits(endpoint),
    ...(endpoint ? { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) } : {}),
  });
  const clients = {
    endpoint,
    db: documentClient(endpoint, requestHandler, 2),
    countingDb: documentClient(endpoint, requestHandler, 1),
  };
  for (const hook of hooks) hook(clients);
  return clients;
}

let current: StoreClients | undefined;

const hooks: ((clients: StoreClients) => void)[] = [];

/**
 * Runs `hook` on the store clients: those made already and every set made later. Middleware goes on
 * this way (the local run's IAM check, a test's fault), so that clients made again keep it.
 */
export function onEachStoreClients(hook: (clients: StoreClients) => void): void {
  hooks.push(hook);
  if (current) hook(current);
}

/** The clients for the endpoint the settings name now: made on first use, and again if it changed. */
export function storeClients(): StoreClients {
  const endpoint = variable('DYNAMODB_ENDPOINT');
  if (current === undefined || current.endpoint !== endpoint) {
    closeStoreClients();
    current = makeClients(endpoint);
  }
  return current;
}

/** Closes the clients' sockets (a test suite's end); the next store call makes new ones. */
export function closeStoreClients(): void {
  current?.db.destroy();
  current?.countingDb.destroy();
  current = undefined;
}

type Send = DynamoDBDocumentClient['send'];

/** `send` of the current client that `pick` names. */
const sendThrough = (pick: (clients: StoreClients) => DynamoDBDocumentClient): Send =>
  ((...args: unknown[]) => (pick(storeClients()).send as (...sent: unknown[]) => unknown)(...args)) as Send;

/** For reads and for writes that are safe to repeat (StoreClients.db). */
export const db: { send: Send } = { send: sendThrough((clients) => clients.db) };

/** For the rate counters: no retry (StoreClients.countingDb). */
export const countingDb: { send: Send } = { send: sendThrough((clients) => clients.countingDb) };
