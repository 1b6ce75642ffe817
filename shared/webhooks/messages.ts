import { createHash } from 'node:crypto';
import type { DeliveredEventType } from '#shared/model/webhook-events.ts';
import type { WebhookEventData } from '#shared/schemas/webhooks/events.ts';

// What travels on the delivery queue: one event for one subscription. It names the subscription
// and never carries its secret (queues and their dead letters are readable by operators); the
// delivery reads the secret when it signs. `data` is frozen when the event happens, so every
// attempt sends the same body.

export interface DeliveryMessage {
  /** The `webhook-id` header: one per event and subscription, the same on every attempt. */
  messageId: string;
  ownerId: string;
  webhookId: string;
  type: DeliveredEventType;
  /** When the event happened (ISO-8601): the body's `timestamp`. */
  timestamp: string;
  /** The resource as the API returns it (typed from the schema the document gives the event). */
  data: WebhookEventData;
  /** 1 for the first attempt. */
  attempt: number;
  /** When attempt 1 ran; set by it. */
  firstAttemptAt?: string;
  /**
   * Not to be attempted before this time (epoch ms). A queue delays a message at most 15 minutes
   * at a time, so a longer wait is a chain of hops, each re-checking this.
   */
  notBefore?: number;
}

/** The body every attempt sends, byte for byte. */
export const bodyOf = (message: DeliveryMessage): string =>
  JSON.stringify({ type: message.type, timestamp: message.timestamp, data: message.data });

/** `webhook-id`: derived from the event and the subscription, so a repeated reading repeats it. */
export const messageIdOf = (sourceId: string, webhookId: string): string =>
  `msg_${createHash('sha256').update(`${sourceId}\n${webhookId}`).digest('base64url').slice(0, 27)}`;
