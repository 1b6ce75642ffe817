import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { db } from '#shared/db/client.ts';
import { type Page, queryPage } from '#shared/db/pages.ts';
import { tableName } from '#shared/db/tables.ts';
import { newId } from '#shared/model/ids.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { WebhookDelivery as WebhookDeliverySchema } from '#shared/schemas/webhooks/resources.ts';

// The delivery log: one item per attempt under its subscription (partition `webhookId`, sort `id`,
// a ULID, so newest first is the key order). Items expire after 30 days by TTL; nothing reads them
// by expiry, so a late deletion only makes the log longer.

const table = (): string => tableName('webhookDeliveries');

const KEEP_SECONDS = 30 * 24 * 60 * 60;

export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;

export type DeliveryOutcome = WebhookDelivery['outcome'];

const OUTCOMES: readonly DeliveryOutcome[] = ['succeeded', 'retrying', 'failed', 'dropped'];

const toDelivery = (item: Record<string, unknown>): WebhookDelivery => ({
  id: String(item.id),
  messageId: String(item.messageId),
  event: String(item.event),
  attempt: Number(item.attempt),
  // `dead_lettered` was the name of `failed` before exhausted deliveries stopped going to the dead-letter queue.
  outcome:
    item.outcome === 'dead_lettered'
      ? 'failed'
      : (OUTCOMES.find((outcome) => outcome === item.outcome) ?? 'retrying'),
  statusCode: typeof item.statusCode === 'number' ? item.statusCode : null,
  error: typeof item.error === 'string' ? item.error : null,
  durationMs: Number(item.durationMs),
  attemptedAt: String(item.attemptedAt),
  nextRetryAt: typeof item.nextRetryAt === 'string' ? item.nextRetryAt : null,
});

/** Appends one attempt to a subscription's log. */
export async function putDelivery(
  webhookId: string,
  attempt: Omit<WebhookDelivery, 'id'>,
): Promise<WebhookDelivery> {
  const delivery: WebhookDelivery = { id: newId('wdl'), ...attempt };
  const { statusCode, error, nextRetryAt, ...always } = delivery;
  await db.send(
    new PutCommand({
      TableName: table(),
      Item: {
        webhookId,
        ...always,
        ...(statusCode === null ? {} : { statusCode }),
        ...(error === null ? {} : { error }),
        ...(nextRetryAt === null ? {} : { nextRetryAt }),
        expiresAt: Math.floor(Date.parse(delivery.attemptedAt) / 1000) + KEEP_SECONDS,
      },
    }),
  );
  return delivery;
}

/** A page of a subscription's attempts, newest first; the caller checked that it is theirs. */
export async function listDeliveries(webhookId: string, page: PageRequest): Promise<Page<WebhookDelivery>> {
  const result = await queryPage(
    {
      scope: `deliveries:${webhookId}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'webhookId = :webhookId',
        ExpressionAttributeValues: { ':webhookId': webhookId },
      },
      resume: { keyOf: (id) => ({ webhookId, id }) },
    },
    page,
  );
  return { items: result.items.map(toDelivery), nextCursor: result.nextCursor };
}
