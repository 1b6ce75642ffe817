import { ENVIRONMENT_HEAD_KEY, type TableKey, tableKeys, tables } from '#shared/db/tables.ts';
import type { FunctionAccess, QueueKey } from './routes.ts';

// The consumers: functions fed by DynamoDB streams, by a queue or by a schedule rather than by a route, listed
// once like the routes. The stack (infra/consumers/webhooks.ts, infra/consumers/project-purge.ts,
// infra/consumers/auto-promotion.ts) builds each and attaches it to its source; `npm start` and the tests feed
// the stream consumers from DynamoDB Local's streams (infra/local/stream-poller.ts) and the queue
// consumer from the in-process queue (infra/local/webhook-queue.ts). A table named here must declare
// a stream in shared/db/tables.ts.
// What each may call is declared here like a route's (FunctionAccess): its role grants exactly that,
// and local runs refuse the rest. Reading its stream or queue is the event source's, not its code's.

/**
 * A Lambda event filter pattern, in the part of its syntax used here: a field's pattern is the list
 * of values it may have (a value, or `{ 'anything-but': [...] }`), or the patterns of its own fields.
 * The stack hands it to the event source mapping as it is (records that do not match never invoke
 * the function, and cost nothing), and the local poller applies it to the records it reads
 * (infra/local/event-filter.ts).
 */
export type FilterPattern = { readonly [field: string]: FilterPattern | readonly FilterValue[] };
export type FilterValue =
  | string
  | { readonly 'anything-but': readonly string[] }
  | { readonly exists: boolean };

export interface StreamConsumer extends FunctionAccess {
  /** The Lambda entry point: `functions/<feature>/<handler>.ts`, exporting `handler(event: DynamoDBStreamEvent)`. */
  handler: string;
  /** The tables whose changes it receives, in batches of records with new and old images. */
  streams: readonly TableKey[];
  /** Per stream, the only records it receives; all of them for a stream without one. */
  filters?: Partial<Record<TableKey, FilterPattern>>;
}

export interface QueueConsumer extends FunctionAccess {
  /** `functions/<feature>/<handler>.ts`, exporting `handler(event: SQSEvent): SQSBatchResponse`. */
  handler: string;
  queue: QueueKey;
}

/** A record whose write carried an audit stamp (shared/db/audit/stamp.ts): a change's own. */
const STAMPED: FilterPattern = {
  dynamodb: { NewImage: { audit: { M: { id: { S: [{ exists: true }] } } } } },
};

/** The audit log's streams: the audited tables that have one (shared/db/tables.ts says which). */
const AUDITED_STREAMS = tableKeys.filter((key) => tables[key].audited && 'stream' in tables[key]);

// biome-ignore format: rows read as a table
export const streamConsumers = [
  // Webhook events: a project put, changed or removed; a deployment created or moved; a project's
  // environment variables changed (the environment table's head item: its variables, snapshots and
  // production history are other items of the table, and never reach the function).
  // A domain verified or expired (its status moved from pending): `domain.verified`, `domain.expired`.
  { handler: 'webhook-fan-out', streams: ['projects', 'deployments', 'environment', 'domains'], tables: { webhooks: ['Query'] }, queues: ['webhookDeliveries'],
    filters: {
      environment: { dynamodb: { Keys: { sk: { S: [ENVIRONMENT_HEAD_KEY] } } } },
      domains: { eventName: ['MODIFY'], dynamodb: {
        NewImage: { status: { S: ['verified', 'expired'] } },
        OldImage: { status: { S: ['pending'] } },
      } },
    } },
  // A removed project's deployments, which its DELETE could not remove within its own second (the
  // same calls as the DELETE's own purge), and its custom domains (this consumer's alone).
  { handler: 'purge-project', streams: ['projects'], filters: { projects: { eventName: ['REMOVE'] } }, tables: { deployments: ['Query:byProject', 'DeleteItem'], environment: ['Query', 'DeleteItem'], deploymentLogs: ['Query', 'DeleteItem'], domains: ['Query:byProject', 'DeleteItem'] } },
  // Automatic promotion: a production deployment that just became ready (its status changed to it).
  { handler: 'auto-promote', streams: ['deployments'], tables: { projects: ['GetItem', 'UpdateItem'], environment: ['PutItem'] },
    filters: { deployments: { eventName: ['MODIFY'], dynamodb: {
      NewImage: { status: { S: ['ready'] }, target: { S: ['production'] } },
      OldImage: { status: { S: [{ 'anything-but': ['ready'] }] } },
    } } } },
  // The audit log: the event of each change whose write carried a stamp, with what it changed.
  { handler: 'record-audit-events', streams: AUDITED_STREAMS, tables: { auditEvents: ['PutItem'] },
    filters: Object.fromEntries(AUDITED_STREAMS.map((key) => [key, STAMPED])) },
] as const satisfies readonly StreamConsumer[];

// biome-ignore format: rows read as a table
export const queueConsumers = [
  // One delivery attempt per message; retries and dead letters are messages it sends.
  { handler: 'deliver-webhooks', queue: 'webhookDeliveries', tables: { webhooks: ['GetItem', 'UpdateItem'], webhookDeliveries: ['PutItem'] }, queues: ['webhookDeliveries'] },
] as const satisfies readonly QueueConsumer[];

/**
 * A function run on a schedule rather than by a route, a stream or a queue: in AWS an EventBridge
 * rule invokes it every `everyMinutes` (infra/consumers/domain-checks.ts); `npm start` and the tests run it
 * on a short period of their own (infra/local/schedules.ts).
 */
export interface ScheduledConsumer extends FunctionAccess {
  /** `functions/<feature>/<handler>.ts`, exporting `handler(event)` for a scheduled event. */
  handler: string;
  everyMinutes: number;
}

// biome-ignore format: rows read as a table
export const scheduledConsumers = [
  // Pending custom domains checked again when due (the front of the dueChecks index), or expired.
  { handler: 'recheck-domains', everyMinutes: 1, tables: { domains: ['Query:dueChecks', 'UpdateItem'] } },
] as const satisfies readonly ScheduledConsumer[];

/** The records of `table` that a consumer receives: its filter for that stream, if it has one. */
export const filterOf = (consumer: StreamConsumer, table: TableKey): FilterPattern | undefined =>
  consumer.filters?.[table];

/** Every consumer's handler: each is one function besides the routes'. */
export const consumerHandlers = (): string[] => [
  ...streamConsumers.map(({ handler }) => handler),
  ...queueConsumers.map(({ handler }) => handler),
  ...scheduledConsumers.map(({ handler }) => handler),
];
