import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertWebhookDocumented } from './contract.ts';

// A webhook receiver on loopback: it keeps every request and answers each with the next status of
// its script (the last one repeats), so a test can fail a delivery twice and then accept it. Every
// delivery is checked against the document's `webhooks` entry for its type when a test waits for it
// (the contract test of the payloads, as test/support/http.ts's is of the answers).

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests arrived (fails the test after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(statuses: readonly number[] = [204]): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 204;
      res.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, received ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      for (const { body, headers } of received) assertWebhookDocumented(body, headers);
      return received;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
