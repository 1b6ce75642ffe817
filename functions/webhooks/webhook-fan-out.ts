import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import { fanOut } from '#shared/webhooks/fan-out.ts';

// The stream consumer of the projects and deployments tables: each change that is an event becomes
// one delivery message per subscription that wants it. A failure names the first record not done
// (batch item failures): the stream hands it over again with the ones after it, and their messages
// carry the same ids, so receivers can tell the repeat.

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  fanOut(event.Records, (messages) => deliveryQueue().send(messages, 0));
