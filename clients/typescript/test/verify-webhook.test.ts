import { startStreamPoller } from '../../../infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '../../../infra/local/webhook-queue.ts';
import { streamConsumers } from '../../../shared/consumers.ts';
import { deliverySettings } from '../../../shared/webhooks/settings.ts';
import { signedHeaders } from '../../../shared/webhooks/signer.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { startGateway } from '../../../test/support/gateway.ts';
import { overrideSettings } from '../../../test/support/settings.ts';
import * as users from '../../../test/support/users.ts';
import { newCaller } from '../../../test/support/users.ts';
import type { ReceivedWebhook, WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import { startReceiver } from '../../../test/support/webhook-receiver.ts';
import { PlatformClient, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../src/index.ts';

// `verifyWebhook` on deliveries the local service really makes (a subscription of a new user to a
// receiver on loopback, which a local run may allow): the service's own signature verifies, and a
// changed byte, another secret or a timestamp older than 5 minutes is refused.

type LocalQueue = import('../../../infra/local/webhook-queue.ts').LocalWebhookQueue;
type StreamPoller = import('../../../infra/local/stream-poller.ts').StreamPoller;

const restoreSettings = overrideSettings({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1' });
let gateway: TestGateway;
let queue: LocalQueue;
let poller: StreamPoller;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  // Only this file's users' records: another file's poller delivers its own.
  poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    // Not the audit log's recorder: its seven streams would double what this file asks of DynamoDB Local.
    consumers: streamConsumers.filter(({ handler }) => handler !== 'record-audit-events'),
    accepts: users.ownedByThisRun,
  });
});
afterAll(async () => {
  await poller.stop();
  await queue.drained();
  await queue.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await gateway.close();
  restoreSettings();
});

const headersOf = (delivery: ReceivedWebhook) => delivery.headers as Record<string, string>;

/** A subscription to `*` of a new user (to a receiver of its own), and its first `count` deliveries. */
async function deliveries(
  count: number,
  act: (client: InstanceType<typeof PlatformClient>) => Promise<void>,
) {
  const receiver = await startReceiver([204]);
  receivers.push(receiver);
  const { key } = await newCaller();
  const client = new PlatformClient({ baseUrl: gateway.baseUrl, apiKey: key });
  const { secret, webhook } = await client.webhooks.create({ url: receiver.url, events: ['*'] });
  await act(client);
  await client.webhooks.test(webhook.id);
  return { secret, webhookId: webhook.id, received: await receiver.waitFor(count, 20_000) };
}

describe('verifyWebhook', () => {
  it('returns the event of a real delivery, typed by its type, from a plain object or Headers', async () => {
    const { secret, webhookId, received } = await deliveries(2, async (client) => {
      await client.projects.create({ name: 'hooked' });
    });
    const events: WebhookEvent[] = [];
    for (const delivery of received)
      events.push(await verifyWebhook(delivery.body, headersOf(delivery), secret));
    const ping = events.find((event) => event.type === 'ping');
    expect(ping?.data).toEqual({ webhookId });
    const created = events.find((event) => event.type === 'project.created');
    // The union narrows on `type`: here `data` is a Project.
    if (created?.type !== 'project.created') throw new Error('no project.created delivery');
    expect(created.data.name).toBe('hooked');

    const [first] = received;
    const headers = new Headers(headersOf(first as ReceivedWebhook));
    const bytes = new TextEncoder().encode(first?.body);
    expect(await verifyWebhook(bytes, headers, secret)).toEqual(JSON.parse(first?.body ?? ''));
  });

  it('refuses a changed byte, another secret and a timestamp more than 5 minutes old', async () => {
    const { secret, received } = await deliveries(1, async () => {});
    const [delivery] = received as [ReceivedWebhook];
    const headers = headersOf(delivery);
    const refusal = (promise: Promise<unknown>) =>
      expect(promise).rejects.toBeInstanceOf(WebhookVerificationError);

    await refusal(verifyWebhook(delivery.body.replace('"ping"', '"pong"'), headers, secret));
    await refusal(verifyWebhook(`${delivery.body} `, headers, secret));
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await expect(verifyWebhook(delivery.body, headers, otherSecret)).rejects.toThrow(
      'No matching webhook signature',
    );

    // Signed again with the right secret, six minutes ago: the signature is good, the time is not.
    const old = signedHeaders(
      secret,
      headers['webhook-id'] ?? '',
      delivery.body,
      new Date(Date.now() - 6 * 60_000),
    );
    await expect(verifyWebhook(delivery.body, old, secret)).rejects.toThrow('more than 5 minutes');
    // Its signature changed for the old time, keeping the delivery's own timestamp: refused too.
    await refusal(
      verifyWebhook(delivery.body, { ...headers, 'webhook-signature': old['webhook-signature'] }, secret),
    );
    await expect(
      verifyWebhook(delivery.body, { ...headers, 'webhook-signature': '' }, secret),
    ).rejects.toThrow('Missing webhook headers');
  });

  it('accepts a delivery when any one of several signatures in the header matches', async () => {
    const { secret, received } = await deliveries(1, async () => {});
    const [delivery] = received as [ReceivedWebhook];
    const headers = headersOf(delivery);
    const wrong = `v1,${Buffer.alloc(32, 1).toString('base64')}`;
    const several = { ...headers, 'webhook-signature': `${wrong} v2,abc ${headers['webhook-signature']}` };
    expect(await verifyWebhook(delivery.body, several, secret)).toMatchObject({ type: 'ping' });
    await expect(
      verifyWebhook(delivery.body, { ...headers, 'webhook-signature': `${wrong} ${wrong}` }, secret),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
