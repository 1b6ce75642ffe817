import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { jsonService } from '../aws/json-protocol.ts';

// The one SQS action the webhook functions use. `@aws-sdk/client-sqs` is not a dependency of this
// project yet; once it is, this file becomes a SendMessageBatchCommand and nothing else changes.

let call: ReturnType<typeof jsonService> | undefined;
const sqs = () => {
  const region = process.env.AWS_REGION ?? 'us-east-1';
  call ??= jsonService({
    service: 'sqs',
    region,
    endpoint: `https://sqs.${region}.amazonaws.com`,
    targetPrefix: 'AmazonSQS',
    credentials: defaultProvider(),
  });
  return call;
};

export interface QueueEntry {
  body: string;
  delaySeconds: number;
}

/** Sends up to ten messages in one call; throws when any of them was not taken. */
export async function sendMessageBatch(queueUrl: string, entries: readonly QueueEntry[]): Promise<void> {
  const answer = await sqs()('SendMessageBatch', {
    QueueUrl: queueUrl,
    Entries: entries.map((entry, index) => ({
      Id: String(index),
      MessageBody: entry.body,
      DelaySeconds: entry.delaySeconds,
    })),
  });
  const failed = Array.isArray(answer.Failed) ? answer.Failed.length : 0;
  if (failed > 0) throw new Error(`SQS SendMessageBatch: ${failed} of ${entries.length} messages not sent`);
}
