import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for SQS on loopback, for bundles run outside AWS: it answers SendMessageBatch in SQS's
// JSON protocol (the `X-Amz-Target` header names the action) with the MD5 of each body, which the
// SDK checks, and keeps the messages. Nothing else: it is the one action the functions use
// (shared/webhooks/sqs.ts).

interface BatchEntry {
  Id: string;
  MessageBody: string;
  DelaySeconds?: number;
}

export interface StandInQueue {
  /** A queue URL on this stand-in: the SDK sends to the host of the URL it is given. */
  url: string;
  /** The bodies received, oldest first. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startSqsStandIn(): Promise<StandInQueue> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify(body));
      };
      if (request.headers['x-amz-target'] !== 'AmazonSQS.SendMessageBatch') {
        return answer(400, { __type: 'com.amazonaws.sqs#InvalidAction', message: 'not served here' });
      }
      const { Entries } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Entries: BatchEntry[] };
      bodies.push(...Entries.map((entry) => entry.MessageBody));
      return answer(200, {
        Successful: Entries.map((entry) => ({
          Id: entry.Id,
          MessageId: randomUUID(),
          MD5OfMessageBody: createHash('md5').update(entry.MessageBody).digest('hex'),
        })),
        Failed: [],
      });
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/000000000000/webhook-deliveries`,
    bodies,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
