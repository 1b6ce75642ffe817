import { queueConsumers } from '#shared/consumers.ts';
import { checkAccess } from '#shared/runtime/access-check.ts';
import { outsideAnyRequest } from '#shared/runtime/deadline.ts';
import { logError } from '#shared/runtime/log.ts';
import { type DeliverySettings, deliverAndSchedule } from '#shared/webhooks/deliver.ts';
import { type DeliveryQueue, useLocalDeliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import type { DeliveryMessage } from '#shared/webhooks/messages.ts';
import { runAs } from './iam/principal.ts';

// The local stand-in for the delivery queue and its dead-letter queue: timers in this process. A
// message waits its delay, then the same delivery code as the stack's function runs it, and its
// answer (a retry later) comes back here, so `npm start` and the tests keep the stack's schedule
// (scaled by WEBHOOK_RETRY_BASE_SECONDS). A delivery that throws (the store restarting) is offered
// again a few times, as SQS would, then dead-lettered, as the stack's redrive policy does. Nothing survives a
// restart: this is for trying the API, not for keeping promises. A send is checked as SQS would check
// SendMessage against the sender's grants, and each delivery runs as the queue's consumer function,
// with its grants (infra/local/iam).

/** How often a message whose delivery threw is offered again (SQS: the redrive's maxReceiveCount). */
const MAX_RECEIVES = 5;
const RECEIVE_AGAIN_MS = 1_000;

const QUEUE = 'webhookDeliveries';
const consumer = queueConsumers.find((candidate) => candidate.queue === QUEUE)?.handler;

export interface LocalWebhookQueue extends DeliveryQueue {
  /** Messages whose delivery threw on every receive, oldest first: the local dead-letter queue. */
  readonly deadLetters: readonly DeliveryMessage[];
  /** Resolves once nothing is waiting or running. */
  drained(): Promise<void>;
  /** Takes no more, drops what waits, and resolves once the deliveries already running have ended. */
  stop(): Promise<void>;
}

export function startLocalWebhookQueue(settings: DeliverySettings): LocalWebhookQueue {
  const deadLetters: DeliveryMessage[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  // A message is sent from inside a request (a test ping) or a delivery; its timer must not carry that
  // request's deadline along, or every attempt due after it would be aborted before it starts.
  const later = (run: () => Promise<unknown>, delayMs: number) => {
    if (stopped) return;
    const timer = outsideAnyRequest(() =>
      setTimeout(() => {
        timers.delete(timer);
        const job = run().finally(() => running.delete(job));
        running.add(job);
      }, delayMs),
    );
    timers.add(timer);
  };

  const receive = async (message: DeliveryMessage, receives: number): Promise<void> => {
    try {
      if (!consumer) throw new Error(`No consumer of ${QUEUE} in shared/consumers.ts`);
      await runAs(consumer, () => deliverAndSchedule(message, settings, queue));
    } catch (error) {
      logError('local webhook queue: delivery failed to run', { messageId: message.messageId }, error);
      if (receives >= MAX_RECEIVES) deadLetters.push(message);
      else later(() => receive(message, receives + 1), RECEIVE_AGAIN_MS);
    }
  };

  const queue: LocalWebhookQueue = {
    deadLetters,
    async send(messages, delaySeconds) {
      checkAccess({ action: 'sqs:SendMessage', resource: { service: 'sqs', queue: QUEUE } });
      for (const message of messages) later(() => receive(message, 1), Math.max(0, delaySeconds * 1000));
    },
    async drained() {
      while (timers.size > 0 || running.size > 0) {
        await Promise.allSettled([...running]);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      useLocalDeliveryQueue(undefined);
      // A delivery still running writes to the store: the caller closes the store's clients next.
      await Promise.allSettled([...running]);
    },
  };
  useLocalDeliveryQueue(queue);
  return queue;
}
