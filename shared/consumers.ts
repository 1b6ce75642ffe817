import type { TableKey } from '#shared/db/tables.ts';
import type { FunctionAccess, QueueKey } from './routes.ts';

// The consumers: functions fed by DynamoDB streams or by a queue rather than by a route, listed
// once like the routes. The stack (infra/webhooks.ts) builds each and attaches it to its source;
// `npm start` and the tests feed the stream consumers from DynamoDB Local's streams
// (infra/local/stream-poller.ts) and the queue consumer from the in-process queue
// (infra/local/webhook-queue.ts). A table named here must declare a stream in shared/db/tables.ts.
// What each may call is declared here like a route's (FunctionAccess): its role grants exactly that,
// and local runs refuse the rest. Reading its stream or queue is the event source's, not its code's.

export interface StreamConsumer extends FunctionAccess {
  /** The Lambda entry point: `functions/<handler>.ts`, exporting `handler(event: DynamoDBStreamEvent)`. */
  handler: string;
  /** The tables whose changes it receives, in batches of records with new and old images. */
  streams: readonly TableKey[];
}

export interface QueueConsumer extends FunctionAccess {
  /** `functions/<handler>.ts`, exporting `handler(event: SQSEvent): SQSBatchResponse`. */
  handler: string;
  queue: QueueKey;
}

// biome-ignore format: rows read as a table
export const streamConsumers = [
  // Webhook events: a project put, changed or removed; a deployment created or moved; a project's
  // environment variables changed (the environment table's head item).
  { handler: 'webhook-fan-out', streams: ['projects', 'deployments', 'environment'], tables: { webhooks: ['Query'] }, queues: ['webhookDeliveries'] },
  // A removed project's deployments, which its DELETE could not remove within its own second.
  // The same calls as the DELETE's own purge.
  { handler: 'purge-project', streams: ['projects'], tables: { deployments: ['Query:byProject', 'DeleteItem'], environment: ['Query', 'DeleteItem'], deploymentLogs: ['Query', 'DeleteItem'] } },
] as const satisfies readonly StreamConsumer[];

// biome-ignore format: rows read as a table
export const queueConsumers = [
  // One delivery attempt per message; retries and dead letters are messages it sends.
  { handler: 'deliver-webhooks', queue: 'webhookDeliveries', tables: { webhooks: ['GetItem', 'UpdateItem'], webhookDeliveries: ['PutItem'] }, queues: ['webhookDeliveries'] },
] as const satisfies readonly QueueConsumer[];

/** Every consumer's handler: each is one function besides the routes'. */
export const consumerHandlers = (): string[] => [
  ...streamConsumers.map(({ handler }) => handler),
  ...queueConsumers.map(({ handler }) => handler),
];
