import type { AddressInfo } from 'node:net';
import { createGateway, LISTEN_BACKLOG } from '#infra/local/gateway.ts';
import { closeStoreClients } from '#shared/db/client.ts';
import { useLocalDeliveryQueue } from '#shared/webhooks/delivery-queue.ts';

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
        closeStoreClients();
      }),
  };
}

/**
 * The gateway for files that walk routes, not deliveries: a webhook's test ping is accepted and
 * dropped. Closing it puts the local delivery queue back.
 */
export async function startGatewayDroppingDeliveries(): Promise<TestGateway> {
  const gateway = await startGateway();
  useLocalDeliveryQueue({ send: async () => undefined });
  return {
    ...gateway,
    close: () => {
      useLocalDeliveryQueue(undefined);
      return gateway.close();
    },
  };
}
