import { connect, createServer, type Server } from 'node:net';

// A TCP proxy on loopback in front of one port: it counts the connections it accepts and keeps
// what clients sent, so a test can see how many connections a process opened to a store, and
// what it signed its requests with (the requests are plain HTTP on loopback).

export interface CountingProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Everything clients have sent so far, as text. */
  sent(): string;
  close(): Promise<void>;
}

export async function startCountingProxy(upstream: URL): Promise<CountingProxy> {
  let accepted = 0;
  const chunks: Buffer[] = [];
  const server: Server = createServer((client) => {
    accepted++;
    const store = connect(Number(upstream.port), upstream.hostname);
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(store).pipe(client);
    // Either side ending or failing ends both: the test only cares about the count.
    client.on('error', () => store.destroy());
    store.on('error', () => client.destroy());
    client.on('close', () => store.destroy());
    store.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    sent: () => Buffer.concat(chunks).toString('latin1'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
