import { Agent } from 'node:http';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { installAuditStamp } from '#shared/db/audit/stamp.ts';
import { DeadlineBoundHandler } from '#shared/runtime/deadline-bound-handler.ts';
import { recordStoreCall } from './store-timing.ts';

// The DynamoDB clients, one set per container, created at load time, outside any handler.
// DYNAMODB_ENDPOINT is read here and nowhere else: set, it points every call at DynamoDB Local.

const endpoint = process.env.DYNAMODB_ENDPOINT;

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
const ATTEMPT_LIMITS = {
  connectionTimeout: 1_000,
  requestTimeout: endpoint ? 2_000 : 1_000,
  throwOnRequestTimeout: true,
};

// One handler, so both clients share one keep-alive pool: a cold start opens one connection, not two.
// In Lambda a container serves one request at a time, and the SDK's default pool is plenty; the
// local gateway serves many at once, with as many sockets as it runs invocations.
const requestHandler = new DeadlineBoundHandler({
  ...ATTEMPT_LIMITS,
  ...(endpoint ? { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) } : {}),
});

function documentClient(maxAttempts: number): DynamoDBDocumentClient {
  const config: DynamoDBClientConfig = {
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'local',
          // DynamoDB Local keeps one database per access key and region; every local client uses these.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts,
    requestHandler,
  };
  const client = new DynamoDBClient(config);
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

/** For reads and for writes that are safe to repeat: one retry on a transient failure. */
export const db = documentClient(2);

/**
 * For the rate counters: no retry. A counting write whose response was lost may still have been
 * applied, and repeating it would count one request twice; the request fails instead (a 500 that
 * still carries the rate-limit headers) and the client decides whether to try again.
 */
export const countingDb = documentClient(1);
