import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logError } from '#shared/runtime/log.ts';
import { deliverAndSchedule } from '#shared/webhooks/deliver.ts';
import { deliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import type { DeliveryMessage } from '#shared/webhooks/messages.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';

// The delivery queue's consumer: one attempt per message, concurrently. A retry is a new message
// on the same queue (delayed by the schedule, in hops of at most 15 minutes) and an exhausted one is
// sent to the dead-letter queue, so a message this function handled is always deleted. Only a
// message it could not handle (the store or the queue failing) is reported back, and SQS offers
// it again; after five such receipts its redrive policy moves it to the dead-letter queue.

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const queue = deliveryQueue();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        await deliverAndSchedule(JSON.parse(record.body) as DeliveryMessage, deliverySettings(), queue);
      } catch (error) {
        logError('webhook delivery failed to run', { sqsMessageId: record.messageId }, error);
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
