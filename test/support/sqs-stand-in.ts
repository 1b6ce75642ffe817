import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for SQS on loopback, for bundles run outside AWS: it answers SendMessageBatch in SQS's
// JSON protocol (the `X-Amz-Target` header names the action) with the MD5 of each body, which the
// sender checks, and keeps the messages and the headers they came with. Nothing else: it is the one
// action the functions use (shared/webhooks/sqs.ts). `answer` may change what it answers (a failed
// entry, a body that arrived changed).

interface BatchEntry {
  Id: string;
  MessageBody: string;
  DelaySeconds?: number;
}

export interface StandInQueue {
  /** A queue URL on this stand-in: the sender sends to the host of the URL it is given. */
  url: string;
  /** The bodies received, oldest first. */
  bodies: string[];
  /** The headers of each request, oldest first. */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

/** SQS's answer to a batch. */
export interface BatchAnswer {
  Successful: { Id: string; MessageId: string; MD5OfMessageBody: string }[];
  Failed: { Id: string; Code: string; SenderFault: boolean }[];
}

export async function startSqsStandIn(
  options: { answer?: (answer: BatchAnswer) => BatchAnswer } = {},
): Promise<StandInQueue> {
  const bodies: string[] = [];
  const headers: StandInQueue['headers'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify(body));
      };
      headers.push(request.headers);
      if (request.headers['x-amz-target'] !== 'AmazonSQS.SendMessageBatch') {
        return answer(400, { __type: 'com.amazonaws.sqs#InvalidAction', message: 'not served here' });
      }
      const { Entries } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Entries: BatchEntry[] };
      bodies.push(...Entries.map((entry) => entry.MessageBody));
      const taken: BatchAnswer = {
        Successful: Entries.map((entry) => ({
          Id: entry.Id,
          MessageId: randomUUID(),
          MD5OfMessageBody: createHash('md5').update(entry.MessageBody).digest('hex'),
        })),
        Failed: [],
      };
      return answer(200, options.answer ? options.answer(taken) : taken);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/000000000000/webhook-deliveries`,
    bodies,
    headers,
    // The sender keeps its connection open for the next call, as the SDK's handler does.
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
