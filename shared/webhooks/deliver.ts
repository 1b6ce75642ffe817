import { asSystemChange } from '#shared/db/audit/system-changes.ts';
import { putDelivery } from '#shared/db/webhooks/deliveries.ts';
import {
  disableIfFailingSince,
  findStoredWebhook,
  markFailing,
  markSucceeding,
} from '#shared/db/webhooks/webhooks.ts';
import { PING_EVENT } from '#shared/model/webhook-events.ts';
import { clock } from '#shared/runtime/clock.ts';
import { logInfo } from '#shared/runtime/log.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { bodyOf, type DeliveryMessage } from './messages.ts';
import { retryDelaySeconds } from './retry-schedule.ts';
import { sendWebhook } from './sender.ts';
import { signedHeaders } from './signer.ts';
import type { TargetPolicy } from './targets.ts';

// One attempt to deliver one message, and what becomes of it: done, or again later (the next step
// of the retry schedule). Once the schedule has run out the event is logged `failed` and a
// subscription that has not had a single success since this event's first attempt is disabled,
// with its reason: the customer's receiver failed, and the customer sees it (the delivery log, the
// subscription), not our on-call. Only an attempt that throws (the store or the queue failing: our
// fault) goes back to the queue and, after five, to its dead-letter queue. The queue (SQS or the
// local one) carries out the answer; this module knows nothing of either.

export type NextStep = { step: 'done' } | { step: 'later'; message: DeliveryMessage; delaySeconds: number };

export interface DeliverySettings {
  policy: TargetPolicy;
  retryBaseSeconds: number;
  timeoutMs?: number;
}

export const DISABLED_REASON =
  'Every delivery failed for the whole retry schedule (about a day); PATCH {"enabled": true} re-enables it.';

const iso = (ms: number): string => new Date(ms).toISOString();

export async function deliverOnce(message: DeliveryMessage, settings: DeliverySettings): Promise<NextStep> {
  const now = clock.now();
  // A wait longer than a queue can hold comes back early: hop again until its time.
  if (message.notBefore !== undefined && message.notBefore > now + 500) {
    return { step: 'later', message, delaySeconds: (message.notBefore - now) / 1000 };
  }
  const webhook = await findStoredWebhook(message.ownerId, message.webhookId);
  if (!webhook) return { step: 'done' }; // deleted: its log went with it
  const firstAttemptAt = message.firstAttemptAt ?? iso(now);
  const logged = {
    messageId: message.messageId,
    event: message.type,
    attempt: message.attempt,
    attemptedAt: iso(now),
  };
  // Paused or disabled meanwhile: its pending retries stop. A ping is sent anyway: someone asked.
  if (!webhook.enabled && message.type !== PING_EVENT) {
    await putDelivery(webhook.id, {
      ...logged,
      outcome: 'dropped',
      statusCode: null,
      error: 'subscription disabled',
      durationMs: 0,
      nextRetryAt: null,
    });
    return { step: 'done' };
  }

  const body = bodyOf(message);
  const result = await sendWebhook({
    url: webhook.url,
    headers: signedHeaders(webhook.secret, message.messageId, body, new Date(now)),
    body,
    policy: settings.policy,
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
  });
  // Never the URL's query, the headers or the body: a URL may hold a token, the body is the user's.
  logInfo('webhook delivery', {
    webhookId: webhook.id,
    messageId: message.messageId,
    event: message.type,
    attempt: message.attempt,
    statusCode: result.statusCode ?? undefined,
    ok: result.ok,
    durationMs: result.durationMs,
  });

  if (result.ok) {
    await putDelivery(webhook.id, {
      ...logged,
      outcome: 'succeeded',
      statusCode: result.statusCode,
      error: null,
      durationMs: result.durationMs,
      nextRetryAt: null,
    });
    await markSucceeding(webhook.ownerId, webhook.id);
    return { step: 'done' };
  }

  const failure = { statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
  // The streak starts at this failure (not the event's first): a success in between ended the last one.
  await markFailing(webhook.ownerId, webhook.id, iso(now));
  const delaySeconds = retryDelaySeconds(message.attempt, settings.retryBaseSeconds);
  if (delaySeconds !== undefined) {
    const notBefore = now + Math.round(delaySeconds * 1000);
    await putDelivery(webhook.id, {
      ...logged,
      ...failure,
      outcome: 'retrying',
      nextRetryAt: iso(notBefore),
    });
    return {
      step: 'later',
      message: { ...message, attempt: message.attempt + 1, firstAttemptAt, notBefore },
      delaySeconds,
    };
  }
  await putDelivery(webhook.id, { ...logged, ...failure, outcome: 'failed', nextRetryAt: null });
  // The platform's change, in the team's audit log.
  await asSystemChange('webhook.disabled', webhook.ownerId, () =>
    disableIfFailingSince(webhook.ownerId, webhook.id, firstAttemptAt, iso(clock.now()), DISABLED_REASON),
  );
  return { step: 'done' };
}

/** Runs one attempt and hands its next step to the queue. */
export async function deliverAndSchedule(
  message: DeliveryMessage,
  settings: DeliverySettings,
  queue: DeliveryQueue,
): Promise<NextStep> {
  const next = await deliverOnce(message, settings);
  if (next.step === 'later') await queue.send([next.message], next.delaySeconds);
  return next;
}
