import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import { streamConsumers } from '#shared/consumers.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller, ownedByThisRun } from '../support/users.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// A subscription's secret is shown once, in the 201, and never written to a log line: not by the
// routes, the fan-out or the deliveries (which sign with it). Logging is on for this suite (the run
// keeps it silent): LOG_LEVEL is read when the service's modules load, so they load after it is set.

let gateway: TestGateway;
let stop: () => Promise<void>;
let restoreSettings: () => void;
let drained: () => Promise<void>;
let target: WebhookReceiver;

beforeAll(async () => {
  restoreSettings = overrideSettings({
    LOG_LEVEL: 'info',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  gateway = await startGateway();
  const queue = startLocalWebhookQueue(deliverySettings());
  const poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    // Not the audit log's recorder: its seven streams would double what this file asks of DynamoDB Local.
    consumers: streamConsumers.filter(({ handler }) => handler !== 'record-audit-events'),
    accepts: ownedByThisRun,
  });
  drained = () => queue.drained();
  target = await startReceiver([500, 204]);
  stop = async () => {
    await poller.stop();
    await queue.stop();
    await target.close();
    await gateway.close();
  };
});
afterAll(async () => {
  await stop();
  restoreSettings();
});

it('never writes a secret to the logs, through a failed and a successful delivery', async () => {
  const { key } = await newCaller();
  const webhooksUrl = `${gateway.baseUrl}/webhooks`;
  const { result: secret, lines } = await captureLogs(async () => {
    const made = await call(webhooksUrl, { method: 'POST', key, json: { url: target.url, events: ['*'] } });
    const { secret: shown, webhook } = made.body as { secret: string; webhook: { id: string } };
    await call(webhooksUrl, { key });
    await call(`${webhooksUrl}/${webhook.id}/test`, { method: 'POST', key });
    await target.waitFor(2);
    await drained();
    return shown;
  });
  expect(secret).toMatch(/^whsec_/);
  expect(lines.some((line) => line.includes('webhook delivery'))).toBe(true);
  for (const line of lines) expect(line).not.toContain(secret.slice(6));
});
