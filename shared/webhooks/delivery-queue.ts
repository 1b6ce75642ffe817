import { variable } from '#shared/runtime/variables.ts';
import type { DeliveryMessage } from './messages.ts';
import { sendMessageBatch } from './sqs.ts';

// Where delivery messages go: in AWS the SQS queue the stack names (WEBHOOK_QUEUE_URL), whose
// redrive policy alone fills its dead-letter queue; on a local run (`npm start`, tests) the in-process queue of
// infra/local/webhook-queue.ts, which registers itself here. Either keeps the same schedule: a
// message waits `delaySeconds` before its delivery runs.

export interface DeliveryQueue {
  send(messages: readonly DeliveryMessage[], delaySeconds: number): Promise<void>;
}

/** SQS delays one message at most this long; longer waits are several hops (messages.ts `notBefore`). */
export const MAX_QUEUE_DELAY_SECONDS = 15 * 60;

const BATCH = 10;

function sqsQueue(queueUrl: string): DeliveryQueue {
  return {
    async send(messages, delaySeconds) {
      const delay = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
      for (let start = 0; start < messages.length; start += BATCH) {
        await sendMessageBatch(
          queueUrl,
          messages
            .slice(start, start + BATCH)
            .map((message) => ({ body: JSON.stringify(message), delaySeconds: delay })),
        );
      }
    },
  };
}

let local: DeliveryQueue | undefined;

/** A local run's in-process queue takes the place of SQS (infra/local/webhook-queue.ts). */
export function useLocalDeliveryQueue(queue: DeliveryQueue | undefined): void {
  local = queue;
}

/** The queue of this deployment: SQS when the stack configured one, else the local one. */
export function deliveryQueue(): DeliveryQueue {
  const queueUrl = variable('WEBHOOK_QUEUE_URL');
  if (queueUrl) return sqsQueue(queueUrl);
  if (local) return local;
  throw new Error('No webhook delivery queue: WEBHOOK_QUEUE_URL is not set and no local queue runs');
}
