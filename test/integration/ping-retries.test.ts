import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// A test ping's retries fall due long after the request that sent it has answered (issue 22, item 2).
// The local queue's timers, started inside that request, must not inherit its deadline: with a 1 s
// deadline and a retry unit of 0.2 s, attempts 3 and 4 come due after it has passed (at about 1 s and
// 4.2 s), and before the fix they were aborted, dead-lettered and logged as "retrying" for ever.

const UNIT_SECONDS = 0.2;
const JITTER = 0.2;

type LocalQueue = import('#infra/local/webhook-queue.ts').LocalWebhookQueue;

let gateway: TestGateway;
let queue: LocalQueue;
let target: WebhookReceiver;
let restoreSettings: () => void;

beforeAll(async () => {
  restoreSettings = overrideSettings({
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: String(UNIT_SECONDS),
    REQUEST_DEADLINE_MS: '1000',
  });
  // Imported only now: settings are read when the service's modules load.
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  target = await startReceiver([500, 500, 500, 204]);
});
afterAll(async () => {
  await queue.stop();
  await target.close();
  await gateway.close();
  restoreSettings();
});

it('retries a ping to a receiver that fails three times on schedule, and delivers it on the fourth attempt', async () => {
  const { key } = await newCaller();
  const subscribed = await call(`${gateway.baseUrl}/webhooks`, {
    method: 'POST',
    key,
    json: { url: target.url, events: ['*'] },
  });
  expect(subscribed.status).toBe(201);
  const { webhook } = subscribed.body as { webhook: { id: string } };
  const pinged = await call(`${gateway.baseUrl}/webhooks/${webhook.id}/test`, { method: 'POST', key });
  expect(pinged.status).toBe(202);

  const received = await target.waitFor(4, 15_000);
  await queue.drained();
  const ids = new Set(received.map(({ headers }) => headers['webhook-id']));
  expect(ids.size).toBe(1);
  // On schedule: after 1, 4 and 16 units, each within its ±20 % jitter (plus delivery time).
  const gaps = received.slice(1).map(({ at }, index) => at - (received[index]?.at ?? 0));
  [1, 4, 16].forEach((units, index) => {
    expect(gaps[index]).toBeGreaterThanOrEqual(units * UNIT_SECONDS * 1000 * (1 - JITTER) - 5);
    expect(gaps[index]).toBeLessThan(units * UNIT_SECONDS * 1000 * (1 + JITTER) + 1_000);
  });
  expect(queue.deadLetters).toEqual([]);
  const log = await call(`${gateway.baseUrl}/webhooks/${webhook.id}/deliveries`, { key });
  const attempts = (log.body as { deliveries: { attempt: number; outcome: string; statusCode: number }[] })
    .deliveries;
  expect(attempts.map(({ attempt, outcome, statusCode }) => [attempt, outcome, statusCode])).toEqual([
    [4, 'succeeded', 204],
    [3, 'retrying', 500],
    [2, 'retrying', 500],
    [1, 'retrying', 500],
  ]);
}, 30_000);
