import { startLocalWebhookQueue } from '../../../infra/local/webhook-queue.ts';
import { deliverySettings } from '../../../shared/webhooks/settings.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { startGateway } from '../../../test/support/gateway.ts';
import { overrideSettings } from '../../../test/support/settings.ts';
import { newCaller } from '../../../test/support/users.ts';
import type { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import { startReceiver } from '../../../test/support/webhook-receiver.ts';
import { inProcessCli } from './support/in-process.ts';

// `platform webhooks get|update|deliveries`, in-process with recording streams against the local
// gateway, its delivery queue sending to a receiver on loopback (allowed here, as on a local run).

const restoreSettings = overrideSettings({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1' });
let gateway: TestGateway;
let queue: import('../../../infra/local/webhook-queue.ts').LocalWebhookQueue;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // Imported only now: settings are read when the service's modules load.
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  receiver = await startReceiver([204]);
});
afterAll(async () => {
  await queue.stop();
  await receiver.close();
  await gateway.close();
  restoreSettings();
});

const { platform, platformText } = inProcessCli(() => gateway);

/** A new user's key, and a webhook of theirs to the receiver. */
async function subscribed(events = 'deployment.ready') {
  const { key } = await newCaller();
  const env = { PLATFORM_API_KEY: key };
  const created = await platform(env, [
    'webhooks',
    'create',
    '--url',
    receiver.url,
    '--events',
    events,
    '--description',
    'alerts',
  ]);
  expect(created.code).toBe(0);
  return { env, id: (created.json as { webhook: { id: string } }).webhook.id };
}

describe('platform webhooks', () => {
  it('gets one webhook, with every field as `key: value` lines', async () => {
    const { env, id } = await subscribed();
    expect(await platform(env, ['webhooks', 'get', id])).toEqual({
      code: 0,
      json: expect.objectContaining({
        id,
        url: receiver.url,
        events: ['deployment.ready'],
        description: 'alerts',
        enabled: true,
      }),
    });
    const shown = await platformText(env, ['webhooks', 'get', id]);
    expect(shown.out).toMatch(new RegExp(`^id: +${id}$`, 'm'));
    expect(shown.out).toMatch(/^events: +deployment\.ready$/m);

    const stranger = { PLATFORM_API_KEY: (await newCaller()).key };
    expect(await platform(stranger, ['webhooks', 'get', id])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  it('updates the events, pauses and resumes, and removes the description with an empty one', async () => {
    const { env, id } = await subscribed();
    expect(
      await platform(env, ['webhooks', 'update', id, '--events', 'deployment.ready, deployment.error']),
    ).toMatchObject({ code: 0, json: { id, events: ['deployment.ready', 'deployment.error'] } });
    expect(await platform(env, ['webhooks', 'update', id, '--disable'])).toMatchObject({
      code: 0,
      json: { id, enabled: false },
    });
    expect(await platform(env, ['webhooks', 'update', id, '--enable', '--description', ''])).toMatchObject({
      code: 0,
      json: { id, enabled: true, description: null },
    });
    expect(await platform(env, ['webhooks', 'get', id])).toMatchObject({
      json: { events: ['deployment.ready', 'deployment.error'], enabled: true, description: null },
    });
    expect(await platform(env, ['webhooks', 'update', id, '--url', 'ftp://example.com/hook'])).toMatchObject({
      code: 1,
      json: { error: 'validation_error', field: 'url' },
    });
  });

  it('refuses an update with nothing to change, or both --enable and --disable, before any request', async () => {
    // An unknown id: a request would answer 404, so a usage error shows none was sent.
    const id = 'whk_01JD8Z6D4E5F6G7H8J9K0M1N2P';
    const env = { PLATFORM_API_KEY: (await newCaller()).key };
    expect(await platform(env, ['webhooks', 'update', id])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('Nothing to change') },
    });
    expect(await platform(env, ['webhooks', 'update', id, '--enable', '--disable'])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: 'Give --enable or --disable, not both' },
    });
    expect(await platform(env, ['webhooks', 'update', id, '--disable'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  it('lists the deliveries of a ping as a table, newest first', async () => {
    const { env, id } = await subscribed();
    expect(await platform(env, ['webhooks', 'deliveries', id])).toEqual({ code: 0, json: [] });
    const before = receiver.received.length;
    const pinged = await platform(env, ['webhooks', 'test', id]);
    expect(pinged.code).toBe(0);
    await receiver.waitFor(before + 1);
    await queue.drained();

    const listed = await platform(env, ['webhooks', 'deliveries', id]);
    expect(listed).toEqual({
      code: 0,
      json: [expect.objectContaining({ event: 'ping', attempt: 1, outcome: 'succeeded', statusCode: 204 })],
    });
    const table = await platformText(env, ['webhooks', 'deliveries', id]);
    expect(table.out).toMatch(/^ID +EVENT +ATTEMPT +OUTCOME +STATUSCODE +ATTEMPTEDAT +NEXTRETRYAT\n/);
    expect(table.out).toMatch(/^wdl_\S+ +ping +1 +succeeded +204 +\S+ +-$/m);
  });
});
