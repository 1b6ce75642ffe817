import type { TestGateway } from './gateway.ts';
import { startGateway } from './gateway.ts';
import { type ResponseDroppingProxy, startResponseDroppingProxy } from './response-dropping-proxy.ts';
import { overrideSettings } from './settings.ts';

// The local gateway with the test run's DynamoDB Local behind a proxy that loses, fails or holds
// back answers on purpose (response-dropping-proxy.ts). The store's client reads its endpoint when
// it loads, so the gateway is imported only once the endpoint names the proxy; so must be, after
// this, anything else of the file's that reaches the store (test/support/users.ts, say).

export interface ProxiedGateway {
  gateway: TestGateway;
  proxy: ResponseDroppingProxy;
  /** Stops the gateway and the proxy, and gives the settings back. */
  close(): Promise<void>;
}

export async function startProxiedGateway(): Promise<ProxiedGateway> {
  const proxy = await startResponseDroppingProxy(process.env.DYNAMODB_ENDPOINT ?? '');
  const restoreSettings = overrideSettings({ DYNAMODB_ENDPOINT: proxy.url });
  const gateway = await startGateway();
  return {
    gateway,
    proxy,
    close: async () => {
      await gateway.close();
      await proxy.close();
      restoreSettings();
    },
  };
}
