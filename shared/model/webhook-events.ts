import { REPORTABLE_STATES } from '#shared/model/deployments/states.ts';

// The events a webhook may subscribe to, declared once: the deployment ones follow the lifecycle
// (shared/model/deployments/states.ts), one per state a deployment can be created in or move to.

export const WEBHOOK_EVENT_TYPES = [
  'deployment.created',
  ...REPORTABLE_STATES.map((state) => `deployment.${state}` as const),
  'project.created',
  'project.updated',
  'project.deleted',
  // The production pointer moved (automatically, by a promote or by a rollback).
  'project.production_changed',
  // Keys and targets that changed, never values.
  'project.env.updated',
  // A custom domain's ownership record was found (by a check asked for or a background one), or it
  // was still pending 7 days after it was added.
  'domain.verified',
  'domain.expired',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Subscribes to every event type, including those added later. */
export const ALL_EVENTS = '*';

export const SUBSCRIBABLE_EVENTS = [...WEBHOOK_EVENT_TYPES, ALL_EVENTS] as const;

export type SubscribedEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** Sent by `POST /webhooks/{id}/test` only; no subscription asks for it and every one receives it. */
export const PING_EVENT = 'ping';

export type DeliveredEventType = WebhookEventType | typeof PING_EVENT;

/** Whether a subscription to `events` receives an event of `type`. */
export const wants = (events: readonly string[], type: DeliveredEventType): boolean =>
  type === PING_EVENT || events.includes(ALL_EVENTS) || events.includes(type);
