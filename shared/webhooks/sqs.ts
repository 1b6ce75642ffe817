import { createHash } from 'node:crypto';
import { AwsJsonClient } from '#shared/runtime/aws-json-client.ts';

// The one SQS action the webhook functions use, SendMessageBatch, in SQS's JSON protocol (1.0) with
// the SDK's signer, HTTP handler, retries and credentials (shared/runtime/aws-json-client.ts), as KMS's
// calls are made. The SDK's SQS client would add 20 KB to each function that sends (its error classes
// and schemas for all of SQS, its endpoint rules), for a call of one JSON body (docs/decisions.md).
// Like that client, it sends to the queue URL's host, and checks the MD5 of every body SQS took.

/** Built at first use: only the functions that enqueue webhook messages call SQS. */
let client: AwsJsonClient | undefined;

const sqs = (): AwsJsonClient =>
  (client ??= new AwsJsonClient({
    signingName: 'sqs',
    serviceId: 'SQS',
    target: 'AmazonSQS',
    jsonVersion: '1.0',
    // The SDK client's default: 3 attempts.
    maxAttempts: 3,
    attemptLimits: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  }));

export interface QueueEntry {
  body: string;
  delaySeconds: number;
}

interface BatchAnswer {
  Successful?: { Id: string; MD5OfMessageBody?: string }[];
  Failed?: { Id: string; Code?: string; Message?: string }[];
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** Sends up to ten messages in one call; throws when any of them was not taken, or arrived changed. */
export async function sendMessageBatch(queueUrl: string, entries: readonly QueueEntry[]): Promise<void> {
  const answer = await sqs().call<BatchAnswer>(
    'SendMessageBatch',
    {
      QueueUrl: queueUrl,
      Entries: entries.map((entry, index) => ({
        Id: String(index),
        MessageBody: entry.body,
        DelaySeconds: entry.delaySeconds,
      })),
    },
    new URL(new URL(queueUrl).origin),
  );
  const failed = answer.Failed?.length ?? 0;
  if (failed > 0) throw new Error(`SQS SendMessageBatch: ${failed} of ${entries.length} messages not sent`);
  for (const taken of answer.Successful ?? []) {
    const sent = entries[Number(taken.Id)];
    if (!sent || taken.MD5OfMessageBody !== md5(sent.body))
      throw new Error(`SQS SendMessageBatch: message ${taken.Id} arrived other than it was sent (MD5)`);
  }
}
