import * as z from 'zod/mini';
import { SUBSCRIBABLE_EVENTS } from '#shared/model/webhook-events.ts';
import { NextCursor, prefixedId } from '#shared/schemas/resources.ts';
import { Timestamp } from '#shared/schemas/scalars.ts';

// Webhook subscriptions and their deliveries as the API shows them. Like resources.ts, only the
// document imports this module at run time.

const exampleWebhook = {
  id: 'whk_01JD8Z6D4E5F6G7H8J9K0M1N2P',
  url: 'https://hooks.example.com/platform',
  events: ['deployment.ready', 'deployment.error'],
  description: 'slack',
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  createdAt: '2026-11-22T09:25:00.000Z',
  updatedAt: '2026-11-22T09:25:00.000Z',
} as const;

export const Webhook = z
  .strictObject({
    id: prefixedId('whk', exampleWebhook.id),
    url: z.string(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENTS)),
    description: z.nullable(z.string()),
    enabled: z.boolean().register(z.globalRegistry, {
      description: 'false when paused by its owner or disabled after failing for a day.',
    }),
    disabledAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description:
        'When the service stopped deliveries because every attempt of an event failed for the whole retry schedule; null otherwise.',
    }),
    disabledReason: z.nullable(z.string()).register(z.globalRegistry, {
      description:
        'Why the service disabled it (the delivery log, `GET /webhooks/{id}/deliveries`, shows each failed attempt); PATCH `{"enabled": true}` re-enables it.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Webhook',
    description: 'A webhook subscription as its owner sees it: never its signing secret.',
    examples: [exampleWebhook],
  });

export const CreatedWebhook = z
  .strictObject({
    secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/]{43}=$/)),
    webhook: Webhook,
  })
  .register(z.globalRegistry, {
    id: 'CreatedWebhook',
    description:
      '`secret` verifies the `webhook-signature` of every delivery (Standard Webhooks); it is shown this once.',
    examples: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ohMDAOC5vg=', webhook: exampleWebhook }],
  });

export const WebhookList = z
  .strictObject({ webhooks: z.array(Webhook), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'WebhookList',
    description: "A page of the caller's webhooks, newest first.",
  });

export const WebhookDelivery = z
  .strictObject({
    id: prefixedId('wdl', 'wdl_01JD8Z7E5F6G7H8J9K0M1N2P3Q'),
    messageId: z.string().register(z.globalRegistry, {
      description: 'The `webhook-id` header: the same on every attempt of one event.',
    }),
    event: z.string().register(z.globalRegistry, { description: 'The event type, or `ping`.' }),
    attempt: z.int().check(z.minimum(1)),
    outcome: z.enum(['succeeded', 'retrying', 'failed', 'dropped']).register(z.globalRegistry, {
      description:
        '`retrying`: failed, another attempt at `nextRetryAt`; `failed`: the last attempt of the schedule (about a day) failed too, the event is not sent again (a subscription with no success since its first attempt is then disabled, see `disabledReason`); `dropped`: the subscription was deleted or disabled meanwhile.',
    }),
    statusCode: z.nullable(z.int()).register(z.globalRegistry, {
      description: "The receiver's HTTP status; null when no answer came (see `error`).",
    }),
    error: z.nullable(z.string()).register(z.globalRegistry, {
      description: 'Why no answer counted: a refused address, a timeout, a connection error.',
    }),
    durationMs: z.int().check(z.minimum(0)),
    attemptedAt: Timestamp,
    nextRetryAt: z.nullable(Timestamp),
  })
  .register(z.globalRegistry, {
    id: 'WebhookDelivery',
    description: 'One attempt to deliver one event.',
    examples: [
      {
        id: 'wdl_01JD8Z7E5F6G7H8J9K0M1N2P3Q',
        messageId: 'msg_2b0hqXh7Qd3JzYV9kRrXwWmFv1p',
        event: 'deployment.ready',
        attempt: 2,
        outcome: 'succeeded',
        statusCode: 204,
        error: null,
        durationMs: 84,
        attemptedAt: '2026-11-22T09:31:00.000Z',
        nextRetryAt: null,
      },
    ],
  });

export const WebhookDeliveryList = z
  .strictObject({ deliveries: z.array(WebhookDelivery), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'WebhookDeliveryList',
    description: "A page of a webhook's delivery attempts, newest first, kept 30 days.",
  });

export const WebhookTestResult = z
  .strictObject({ messageId: z.string(), event: z.literal('ping') })
  .register(z.globalRegistry, {
    id: 'WebhookTestResult',
    description:
      'A `ping` was queued for delivery; its attempts appear in the delivery log under `messageId`.',
  });
