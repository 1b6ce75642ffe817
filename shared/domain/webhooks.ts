import { randomUUID } from 'node:crypto';
import type { Page } from '#shared/db/pages.ts';
import { listDeliveries, type WebhookDelivery } from '#shared/db/webhooks/deliveries.ts';
import * as store from '#shared/db/webhooks/webhooks.ts';
import { teamClosed, teamOpenCheck } from '#shared/domain/teams/closing.ts';
import { spansTeam } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError, NotFoundError, ValidationError } from '#shared/model/errors.ts';
import { newId } from '#shared/model/ids.ts';
import { PING_EVENT, type SubscribedEvent } from '#shared/model/webhook-events.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateWebhookInput, UpdateWebhookInput } from '#shared/schemas/webhooks/webhooks.ts';
import { deliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import { messageIdOf } from '#shared/webhooks/messages.ts';
import { targetPolicy } from '#shared/webhooks/settings.ts';
import { newWebhookSecret } from '#shared/webhooks/signer.ts';
import { targetRefusalOf } from '#shared/webhooks/targets.ts';
import { recordChange } from './audit.ts';

export type { Webhook } from '#shared/db/webhooks/webhooks.ts';

/** Subscriptions a user may have: each event costs a delivery per subscription. */
export const MAX_WEBHOOKS_PER_USER = 10;

export interface CreatedWebhook {
  /** The signing secret: returned once, to the caller that made the subscription. */
  secret: string;
  webhook: store.Webhook;
}

/** A URL this deployment may deliver to; a 400 naming `url` otherwise. */
async function checkTarget(url: string): Promise<void> {
  const refusal = await targetRefusalOf(url, targetPolicy());
  if (refusal !== undefined)
    throw new ValidationError('url', `${refusal.startsWith('must') ? '' : 'is refused: '}${refusal}`);
}

const unique = (events: readonly SubscribedEvent[]): SubscribedEvent[] => [...new Set(events)];

const notFound = (id: string) => new NotFoundError(`Webhook ${id} was not found`);

export async function createWebhook(caller: Caller, input: CreateWebhookInput): Promise<CreatedWebhook> {
  spansTeam(caller, "use webhooks, which receive every project's events");
  await checkTarget(input.url);
  const now = isoNow();
  const webhook: store.Webhook = {
    id: newId('whk'),
    url: input.url,
    events: unique(input.events),
    description: input.description ?? null,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  const secret = newWebhookSecret();
  const stored = await store.putWebhook(
    caller.team.partition,
    { ...webhook, secret },
    MAX_WEBHOOKS_PER_USER,
    teamOpenCheck(caller),
  );
  if (stored === 'teamClosed') throw teamClosed(caller.team.id);
  if (stored === 'full') {
    throw new ConflictError(
      `You have ${MAX_WEBHOOKS_PER_USER} webhooks already, the most a user may have; delete one first`,
    );
  }
  return { secret, webhook };
}

export async function listWebhooks(caller: Caller, page: PageRequest): Promise<Page<store.Webhook>> {
  spansTeam(caller, "use webhooks, which receive every project's events");
  return store.listWebhooks(caller.team.partition, page);
}

/** The caller's subscription, or 404: another user's is the same 404 as none. */
export async function getWebhook(caller: Caller, id: string): Promise<store.Webhook> {
  spansTeam(caller, "use webhooks, which receive every project's events");
  const webhook = await store.findWebhook(caller.team.partition, id);
  if (!webhook) throw notFound(id);
  return webhook;
}

export async function updateWebhook(
  caller: Caller,
  id: string,
  input: UpdateWebhookInput,
): Promise<store.Webhook> {
  spansTeam(caller, "use webhooks, which receive every project's events");
  if (input.url !== undefined) await checkTarget(input.url);
  const updated = await store.updateWebhook(caller.team.partition, id, {
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.events === undefined ? {} : { events: unique(input.events) }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    ...(input.description === undefined ? {} : { description: input.description }),
    updatedAt: isoNow(),
  });
  if (!updated) throw notFound(id);
  return updated;
}

/** Deletes a subscription; its queued deliveries find it gone and stop. */
export async function deleteWebhook(caller: Caller, id: string): Promise<void> {
  spansTeam(caller, "use webhooks, which receive every project's events");
  if (!(await store.deleteWebhook(caller.team.partition, id))) throw notFound(id);
}

/** Queues a `ping` to a subscription (even a paused one: its owner asked); its id finds it in the log. */
export async function pingWebhook(caller: Caller, id: string): Promise<{ messageId: string; event: 'ping' }> {
  const webhook = await getWebhook(caller, id);
  const messageId = messageIdOf(`ping:${randomUUID()}`, webhook.id);
  const timestamp = isoNow();
  await deliveryQueue().send(
    [
      {
        messageId,
        ownerId: caller.team.partition,
        webhookId: webhook.id,
        type: PING_EVENT,
        timestamp,
        data: { webhookId: webhook.id },
        attempt: 1,
      },
    ],
    0,
  );
  // A delivery is a message, not a write: its audit event is recorded before the answer.
  await recordChange({ type: 'webhook', id: webhook.id });
  return { messageId, event: PING_EVENT };
}

/** A subscription's delivery log, after checking that the subscription is the caller's. */
export async function listWebhookDeliveries(
  caller: Caller,
  id: string,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  await getWebhook(caller, id);
  return listDeliveries(id, page);
}
