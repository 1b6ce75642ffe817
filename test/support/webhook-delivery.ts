import type { DynamoDBRecord } from 'aws-lambda';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import type { StreamConsumer } from '#shared/consumers.ts';
import { streamConsumers } from '#shared/consumers.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { TestGateway } from './gateway.ts';
import { startGateway } from './gateway.ts';
import { overrideSettings } from './settings.ts';

// Webhooks delivered end to end, locally: the gateway, the stream poller that runs the fan-out, the
// in-process delivery queue, receivers on loopback (private targets allowed) and the retry schedule
// scaled down so that each retry unit is 2 ms (the day-long schedule runs in about three seconds).

export interface WebhookDelivery {
  gateway: TestGateway;
  queue: import('#infra/local/webhook-queue.ts').LocalWebhookQueue;
  close(): Promise<void>;
}

export async function startWebhookDelivery(options: {
  /** Which stream records this file's poller hands over: its own, so that no other file's arrive. */
  accepts: (record: DynamoDBRecord) => boolean;
  /** Pick the consumers to run (default: every one); each stream polled is load on the one store. */
  consumers?: (all: readonly StreamConsumer[]) => readonly StreamConsumer[];
}): Promise<WebhookDelivery> {
  const restoreSettings = overrideSettings({
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  // Loaded after the settings above: the modules read them when they load.
  const gateway = await startGateway();
  const queue = startLocalWebhookQueue(deliverySettings());
  const poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    consumers: options.consumers?.(streamConsumers) ?? streamConsumers,
    accepts: options.accepts,
  });
  return {
    gateway,
    queue,
    close: async () => {
      await poller.stop();
      await queue.stop();
      await gateway.close();
      restoreSettings();
    },
  };
}
