import type { DynamoDBStreamEvent } from 'aws-lambda';
import { deliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import { messagesOf } from '#shared/webhooks/fan-out.ts';

// The stream consumer of the projects and deployments tables: each change that is an event becomes
// one delivery message per subscription that wants it. A failure fails the batch, which the stream
// hands over again; its messages then carry the same ids, so receivers can tell the repeat.

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  const messages = await messagesOf(event.Records);
  if (messages.length > 0) await deliveryQueue().send(messages, 0);
};
