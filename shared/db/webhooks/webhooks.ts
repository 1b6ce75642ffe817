import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { db } from '#shared/db/client.ts';
import { conditionally, transactWrite, transactWriteConditions } from '#shared/db/conditional.ts';
import { type Page, queryPage } from '#shared/db/pages.ts';
import { tableName } from '#shared/db/tables.ts';
import type { TeamOpenCheck } from '#shared/db/teams/teams.ts';
import { updateExpression } from '#shared/db/update-expression.ts';
import type { SubscribedEvent } from '#shared/model/webhook-events.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { Webhook as WebhookSchema } from '#shared/schemas/webhooks/resources.ts';

// Webhook subscriptions under their owner (partition `ownerId`, sort `id`). Beside them, one item
// per owner (`id` = COUNT_ID) counts them: a create increments it under the limit in the same
// transaction as its put, a delete decrements it with its delete, so ten concurrent creates cannot
// make eleven. Subscription ids start with `whk_`, which keeps the counter out of every query.

const table = (): string => tableName('webhooks');

const COUNT_ID = 'count';
const ID_PREFIX = 'whk_';

/** A subscription as its owner sees it: the response schema's type, never the secret. */
export type Webhook = z.output<typeof WebhookSchema>;

/** What the delivery needs besides: the signing secret and how long it has been failing. */
export interface StoredWebhook extends Webhook {
  ownerId: string;
  secret: string;
  /** The first failed attempt since the last success; absent while deliveries succeed. */
  failingSince?: string;
}

const eventsOf = (value: unknown): SubscribedEvent[] =>
  Array.isArray(value) ? (value.filter((event) => typeof event === 'string') as SubscribedEvent[]) : [];

const toWebhook = (item: Record<string, unknown>): Webhook => ({
  id: String(item.id),
  url: String(item.url),
  events: eventsOf(item.events),
  description: typeof item.description === 'string' ? item.description : null,
  enabled: item.enabled === true,
  disabledAt: typeof item.disabledAt === 'string' ? item.disabledAt : null,
  disabledReason: typeof item.disabledReason === 'string' ? item.disabledReason : null,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const toStoredWebhook = (item: Record<string, unknown>): StoredWebhook => ({
  ...toWebhook(item),
  ownerId: String(item.ownerId),
  secret: String(item.secret),
  ...(typeof item.failingSince === 'string' ? { failingSince: item.failingSince } : {}),
});

/**
 * Stores a new subscription unless the owner has `max` already ('full'), or its team is closed for
 * deletion (`teamOpen` fails: 'teamClosed'). The counter's update
 * and the put are one transaction; its token makes the SDK's retry of a lost response a no-op. Two
 * creates of one owner at once conflict on the counter (DynamoDB cancels one): the loser tries again.
 */
export async function putWebhook(
  ownerId: string,
  webhook: Webhook & { secret: string },
  max: number,
  teamOpen?: TeamOpenCheck,
): Promise<'stored' | 'full' | 'teamClosed'> {
  const { description, ...rest } = webhook;
  const refused = await transactWriteConditions(
    (attempt) => ({
      ClientRequestToken: `${webhook.id}-${attempt}`,
      TransactItems: [
        {
          Update: {
            TableName: table(),
            Key: { ownerId, id: COUNT_ID },
            UpdateExpression: 'SET subscriptions = if_not_exists(subscriptions, :zero) + :one',
            ConditionExpression: 'attribute_not_exists(subscriptions) OR subscriptions < :max',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
          },
        },
        {
          Put: {
            TableName: table(),
            Item: { ownerId, ...rest, ...(description === null ? {} : { description }) },
            ConditionExpression: 'attribute_not_exists(id)',
          },
        },
        ...(teamOpen ? [teamOpen] : []),
      ],
    }),
    [0, 2],
  );
  return refused === undefined ? 'stored' : refused === 0 ? 'full' : 'teamClosed';
}

/** The owner's subscription with its secret (the delivery, the ping), or undefined. */
export async function findStoredWebhook(ownerId: string, id: string): Promise<StoredWebhook | undefined> {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { ownerId, id } }));
  return Item ? toStoredWebhook(Item) : undefined;
}

export async function findWebhook(ownerId: string, id: string): Promise<Webhook | undefined> {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { ownerId, id } }));
  return Item ? toWebhook(Item) : undefined;
}

export async function listWebhooks(ownerId: string, page: PageRequest): Promise<Page<Webhook>> {
  const result = await queryPage(
    {
      scope: `webhooks:${ownerId}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'ownerId = :ownerId AND begins_with(id, :prefix)',
        ExpressionAttributeValues: { ':ownerId': ownerId, ':prefix': ID_PREFIX },
      },
      resume: { keyOf: (id) => ({ ownerId, id }) },
    },
    page,
  );
  return { items: result.items.map(toWebhook), nextCursor: result.nextCursor };
}

/**
 * Every subscription of an owner (at most ten: one Query), secrets left out: the fan-out's read, and
 * a team deletion's, `consistent` so that it sees one made just before.
 */
export async function allWebhooksOf(
  ownerId: string,
  read: { consistent?: boolean } = {},
): Promise<Webhook[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'ownerId = :ownerId AND begins_with(id, :prefix)',
      ExpressionAttributeValues: { ':ownerId': ownerId, ':prefix': ID_PREFIX },
      ...(read.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return Items.map(toWebhook);
}

export interface WebhookChanges {
  url?: string;
  events?: SubscribedEvent[];
  enabled?: boolean;
  description?: string | null;
  updatedAt: string;
}

/**
 * Applies a PATCH in one conditional UpdateItem; undefined when there is no such subscription.
 * Enabling clears a disabled state and the failure streak that caused it.
 */
export async function updateWebhook(
  ownerId: string,
  id: string,
  changes: WebhookChanges,
): Promise<Webhook | undefined> {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  const { description, enabled, ...set } = changes;
  const assignments: Record<string, unknown> = {
    ...set,
    ...(enabled === undefined ? {} : { enabled }),
    ...(typeof description === 'string' ? { description } : {}),
  };
  const removals = [
    ...(description === null ? ['description'] : []),
    ...(enabled === true ? ['disabledAt', 'disabledReason', 'failingSince'] : []),
  ];
  const updated = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id },
        ...updateExpression({ set: assignments, remove: removals }),
        ConditionExpression: 'attribute_exists(id)',
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated.failed ? undefined : toWebhook(updated.result.Attributes ?? {});
}

/** Deletes a subscription and gives its place back under the limit, together; false when there is none. */
export async function deleteWebhook(ownerId: string, id: string): Promise<boolean> {
  if (!id.startsWith(ID_PREFIX)) return false;
  // False also when the SDK's retry of a delete whose answer was lost finds it gone.
  return transactWrite(() => ({
    TransactItems: [
      {
        Delete: {
          TableName: table(),
          Key: { ownerId, id },
          ConditionExpression: 'attribute_exists(id)',
        },
      },
      {
        Update: {
          TableName: table(),
          Key: { ownerId, id: COUNT_ID },
          UpdateExpression: 'SET subscriptions = subscriptions - :one',
          ConditionExpression: 'subscriptions > :zero',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
    ],
  }));
}

/** A failed attempt starts the failure streak, unless one is running. */
export async function markFailing(ownerId: string, id: string, at: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id },
        UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :at)',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

/** A success ends the streak; written only when one is running. */
export async function markSucceeding(ownerId: string, id: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id },
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
      }),
    ),
  );
}

/**
 * Disables a subscription whose deliveries have failed without a success since `since` (the first
 * attempt of an event that has now failed its whole schedule). False when one succeeded meanwhile,
 * or it is gone or disabled already.
 */
export async function disableIfFailingSince(
  ownerId: string,
  id: string,
  since: string,
  at: string,
  reason: string,
): Promise<boolean> {
  const disabled = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id },
        UpdateExpression: 'SET enabled = :false, disabledAt = :at, disabledReason = :reason, updatedAt = :at',
        ConditionExpression: 'enabled = :true AND failingSince <= :since',
        ExpressionAttributeValues: {
          ':false': false,
          ':true': true,
          ':at': at,
          ':reason': reason,
          ':since': since,
        },
      }),
    ),
  );
  return !disabled.failed;
}
