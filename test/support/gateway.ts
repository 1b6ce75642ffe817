import type { AddressInfo } from 'node:net';
import { createGateway, LISTEN_BACKLOG } from '../../infra/local/gateway.ts';
import { countingDb, db } from '../../shared/db/client.ts';

export interface TestGateway {
  baseUrl: string;
  backendUrl: string;
  close(): Promise<void>;
}

/** The local gateway on a free port, over real HTTP, with the same handlers Lambda runs. */
export async function startGateway(): Promise<TestGateway> {
  const server = await createGateway();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', LISTEN_BACKLOG, resolve));
  const { port } = server.address() as AddressInfo;
  const backendUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${backendUrl}/v1`,
    backendUrl,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
        // The suite's own clients: their keep-alive sockets would hold the worker open.
        db.destroy();
        countingDb.destroy();
      }),
  };
}
