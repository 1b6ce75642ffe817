import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';

// The one SQS action the webhook functions use.

let client: SQSClient | undefined;

export interface QueueEntry {
  body: string;
  delaySeconds: number;
}

/** Sends up to ten messages in one call; throws when any of them was not taken. */
export async function sendMessageBatch(queueUrl: string, entries: readonly QueueEntry[]): Promise<void> {
  client ??= new SQSClient({});
  const answer = await client.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: entries.map((entry, index) => ({
        Id: String(index),
        MessageBody: entry.body,
        DelaySeconds: entry.delaySeconds,
      })),
    }),
  );
  const failed = answer.Failed?.length ?? 0;
  if (failed > 0) throw new Error(`SQS SendMessageBatch: ${failed} of ${entries.length} messages not sent`);
}
