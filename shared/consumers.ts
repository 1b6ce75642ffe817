import type { TableKey } from './db/tables.ts';

// The stream consumers: functions fed by the DynamoDB streams of tables rather than by a route. The
// stack (infra/webhooks.ts) attaches each to the streams it names; `npm start` and the tests feed
// the same handler from DynamoDB Local's streams (infra/local/stream-poller.ts). A table named here
// must declare a stream in shared/db/tables.ts.

export interface StreamConsumer {
  /** The Lambda entry point: `functions/<handler>.ts`, exporting `handler(event: DynamoDBStreamEvent)`. */
  handler: string;
  /** The tables whose changes it receives, in batches of records with new and old images. */
  streams: readonly TableKey[];
}

export const streamConsumers = [
  // Webhook events: a project put, changed or removed; a deployment created or moved.
  { handler: 'webhook-fan-out', streams: ['projects', 'deployments'] },
] as const satisfies readonly StreamConsumer[];
