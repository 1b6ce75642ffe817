import { Webhook as Verifier } from 'standardwebhooks';
import { personalTeamIdOf } from '#shared/model/teams.ts';
import { DISABLED_REASON } from '#shared/webhooks/deliver.ts';
import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import { newCaller, ownedByThisRun } from '../support/users.ts';
import { startWebhookDelivery, type WebhookDelivery } from '../support/webhook-delivery.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Webhook subscriptions over HTTP, delivered end to end to receivers on loopback, with the retry
// schedule scaled down to milliseconds (test/support/webhook-delivery.ts).

let delivery: WebhookDelivery;
let gateway: TestGateway;
let queue: WebhookDelivery['queue'];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // Only this file's users' records: another file's poller delivers its own (test/support/users.ts).
  delivery = await startWebhookDelivery({ accepts: ownedByThisRun });
  ({ gateway, queue } = delivery);
});
afterAll(async () => {
  await delivery?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(statuses?: number[]): Promise<WebhookReceiver> {
  const started = await startReceiver(statuses);
  receivers.push(started);
  return started;
}

interface ShownWebhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Delivery {
  messageId: string;
  event: string;
  attempt: number;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextRetryAt: string | null;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const webhooksUrl = () => `${gateway.baseUrl}/webhooks`;
const subscribe = (key: string, json: unknown, headers: Record<string, string> = {}) =>
  call(webhooksUrl(), { method: 'POST', key, json, headers });
const ping = (key: string, id: string) => call(`${webhooksUrl()}/${id}/test`, { method: 'POST', key });
const deliveries = async (key: string, id: string) =>
  ((await call(`${webhooksUrl()}/${id}/deliveries`, { key })).body as { deliveries: Delivery[] }).deliveries;

async function created(key: string, url: string, events: string[] = ['*']) {
  const response = await subscribe(key, { url, events });
  expect(response.status).toBe(201);
  return response.body as { secret: string; webhook: ShownWebhook };
}

describe('POST /v1/webhooks', () => {
  it('subscribes a URL and shows its whsec_ secret once, never in GET or the list', async () => {
    const { key } = await newCaller();
    const response = await subscribe(key, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['deployment.ready', 'deployment.ready', 'project.created'],
      description: 'chat',
    });
    expect(response.status).toBe(201);
    const { secret, webhook } = response.body as { secret: string; webhook: ShownWebhook };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(response.headers.get('location')).toBe(`/v1/webhooks/${webhook.id}`);
    expect(webhook).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'http://127.0.0.1:9/hooks',
      events: ['deployment.ready', 'project.created'],
      description: 'chat',
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const one = await call(`${webhooksUrl()}/${webhook.id}`, { key });
    expect(one.body).toEqual(webhook);
    const list = await call(webhooksUrl(), { key });
    expect(list.body).toEqual({ webhooks: [webhook], nextCursor: null });
    for (const text of [one.text, list.text]) expect(text).not.toContain(secret.slice(6));
  });

  it('replays the first answer, secret included, for the same Idempotency-Key', async () => {
    const { key } = await newCaller();
    const json = { url: 'http://127.0.0.1:9/a', events: ['*'] };
    const first = await subscribe(key, json, { 'Idempotency-Key': 'hook-1' });
    const again = await subscribe(key, json, { 'Idempotency-Key': 'hook-1' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(((await call(webhooksUrl(), { key })).body as { webhooks: unknown[] }).webhooks).toHaveLength(1);
  });

  it('allows 10 subscriptions a user, also when they are made at once, and one more after a delete', async () => {
    const { key } = await newCaller();
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        subscribe(key, { url: `http://127.0.0.1:9/${index}`, events: ['*'] }),
      ),
    );
    expect(attempts.filter((response) => response.status === 201)).toHaveLength(10);
    const refused = attempts.filter((response) => response.status === 409);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.body).toEqual({ error: 'conflict', message: expect.stringContaining('10 webhooks') });
    const { items } = await walkPages<ShownWebhook>(webhooksUrl(), key, 'webhooks', 4);
    expect(items).toHaveLength(10);
    expect(items.map(({ id }) => id)).toEqual(
      items
        .map(({ id }) => id)
        .sort()
        .reverse(),
    );
    const [newest] = items;
    expect((await call(`${webhooksUrl()}/${newest?.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await subscribe(key, { url: 'http://127.0.0.1:9/again', events: ['*'] })).status).toBe(201);
  });

  it.each([
    [{ events: ['*'] }, 'url'],
    [{ url: 'not a url', events: ['*'] }, 'url'],
    [{ url: 'https://user:pw@example.com/', events: ['*'] }, 'url'],
    [{ url: 'ftp://example.com/', events: ['*'] }, 'url'],
    [{ url: 'https://example.com/' }, 'events'],
    [{ url: 'https://example.com/', events: [] }, 'events'],
    [{ url: 'https://example.com/', events: ['deployment.deleted'] }, 'events.0'],
    [{ url: 'https://example.com/', events: ['*'], secret: 'mine' }, 'secret'],
    [{ url: 'http://169.254.169.254/latest/meta-data', events: ['*'] }, 'url'],
    [{ url: 'http://[fd00:ec2::254]/', events: ['*'] }, 'url'],
  ])('refuses %p with 400 naming %s', async (json, field) => {
    const { key } = await newCaller();
    const response = await subscribe(key, json);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
  });
});

describe('GET, PATCH and DELETE /v1/webhooks/{id}', () => {
  it("changes url, events, enabled and description, and answers 404 for another user's", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const { webhook } = await created(owner.key, 'http://127.0.0.1:9/x');
    const path = `${webhooksUrl()}/${webhook.id}`;
    const patched = await call(path, {
      method: 'PATCH',
      key: owner.key,
      json: { url: 'http://127.0.0.1:9/y', events: ['project.deleted'], enabled: false, description: 'new' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      url: 'http://127.0.0.1:9/y',
      events: ['project.deleted'],
      enabled: false,
      description: 'new',
    });
    expect(Date.parse((patched.body as ShownWebhook).updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(webhook.updatedAt),
    );
    for (const request of [
      { method: 'GET' },
      { method: 'PATCH', json: { enabled: true } },
      { method: 'DELETE' },
      { method: 'POST', path: '/test' },
      { method: 'GET', path: '/deliveries' },
    ]) {
      const response = await call(`${path}${request.path ?? ''}`, { ...request, key: stranger.key });
      expect(response.status).toBe(404);
    }
    expect((await call(path, { method: 'PATCH', key: owner.key, json: {} })).status).toBe(400);
    expect((await call(path, { method: 'DELETE', key: owner.key })).status).toBe(204);
    expect((await call(path, { method: 'DELETE', key: owner.key })).status).toBe(404);
    expect((await call(path, { key: owner.key })).status).toBe(404);
  });
});

describe('events', () => {
  it('sends project.production_changed, signed, with the pointer before and after and the reason', async () => {
    const { key } = await newCaller();
    const hooked = await receiver([204]);
    const { secret } = await created(key, hooked.url, ['project.production_changed']);
    const post = (path: string, json: unknown = {}) =>
      call(`${gateway.baseUrl}${path}`, { method: 'POST', key, json });
    const project = (await post('/projects', { name: 'live' })).body as { id: string };
    const readyOne = async () => {
      const { id } = (await post('/deployments', { projectId: project.id })).body as { id: string };
      await post(`/deployments/${id}/events`, { status: 'building' });
      expect((await post(`/deployments/${id}/events`, { status: 'ready' })).status).toBe(200);
      return id;
    };
    const a = await readyOne();
    const b = await readyOne();
    expect((await post(`/projects/${project.id}/rollback`)).status).toBe(200);
    type Pointer = { deploymentId: string; promotedAt: string };
    const events = (await hooked.waitFor(3, 20_000)).map(
      ({ body, headers }) =>
        new Verifier(secret).verify(body, headers as Record<string, string>) as {
          type: string;
          data: {
            production: Pointer;
            previousProduction: Pointer | null;
            reason: string;
            projectId: string;
          };
        },
    );
    expect(events.map((event) => event.type)).toEqual(Array(3).fill('project.production_changed'));
    // Deliveries run concurrently: put them in the order of the moves they report.
    events.sort((x, y) => x.data.production.promotedAt.localeCompare(y.data.production.promotedAt));
    expect(
      events.map(({ data }) => [
        data.previousProduction?.deploymentId ?? null,
        data.production.deploymentId,
        data.reason,
      ]),
    ).toEqual([
      [null, a, 'auto'],
      [a, b, 'auto'],
      [b, a, 'rollback'],
    ]);
    expect(events[2]?.data).toMatchObject({
      projectId: project.id,
      project: { id: project.id, autoPromotion: false },
    });
  });

  it('delivers every event type, signed, to a subscription to * and only its own to a narrower one', async () => {
    const { key } = await newCaller();
    const everything = await receiver([200]);
    const readyOnly = await receiver([200]);
    const all = await created(key, everything.url, ['*']);
    const narrow = await created(key, readyOnly.url, ['deployment.ready']);
    const post = (path: string, json?: unknown) =>
      call(`${gateway.baseUrl}${path}`, { method: 'POST', key, json: json ?? {} });

    const project = (await post('/projects', { name: 'hooked' })).body as { id: string };
    const deploy = async () =>
      ((await post('/deployments', { projectId: project.id })).body as { id: string }).id;
    const [first, second, third] = [await deploy(), await deploy(), await deploy()];
    await post(`/deployments/${first}/events`, { status: 'building' });
    const ready = (
      await post(`/deployments/${first}/events`, { status: 'ready', url: 'https://web.example.com' })
    ).body;
    await post(`/deployments/${second}/events`, { status: 'building' });
    await post(`/deployments/${second}/events`, { status: 'error', message: 'build failed' });
    await call(`${gateway.baseUrl}/deployments/${third}/cancel`, { method: 'POST', key });
    const renamed = (
      await call(`${gateway.baseUrl}/projects/${project.id}`, {
        method: 'PATCH',
        key,
        json: { name: 'renamed' },
      })
    ).body;
    // The DELETE also removes the project's deployments: removals of deployments are no event.
    expect((await call(`${gateway.baseUrl}/projects/${project.id}`, { method: 'DELETE', key })).status).toBe(
      204,
    );

    const received = await everything.waitFor(12, 20_000);
    const events = received.map(
      ({ headers, body }) =>
        new Verifier(all.secret).verify(body, headers as Record<string, string>) as {
          type: string;
          data: unknown;
        },
    );
    expect(events.map(({ type }) => type).sort()).toEqual([
      'deployment.building',
      'deployment.building',
      'deployment.canceled',
      'deployment.created',
      'deployment.created',
      'deployment.created',
      'deployment.error',
      'deployment.ready',
      'project.created',
      'project.deleted',
      // The first deployment is on the production branch: ready, it became production.
      'project.production_changed',
      'project.updated',
    ]);
    // `data` is the resource as the API returned it.
    expect(events.find(({ type }) => type === 'deployment.ready')?.data).toEqual(ready);
    expect(events.find(({ type }) => type === 'project.updated')?.data).toEqual(renamed);
    expect(events.find(({ type }) => type === 'project.deleted')?.data).toEqual(renamed);
    const [only] = await readyOnly.waitFor(1);
    expect(
      new Verifier(narrow.secret).verify(only?.body ?? '', only?.headers as Record<string, string>),
    ).toMatchObject({ type: 'deployment.ready', data: ready });
    await queue.drained();
    expect(readyOnly.received).toHaveLength(1);
  });
});

describe('deliveries', () => {
  it('sends a signed ping that verifies with the standardwebhooks verifier, and logs it', async () => {
    const { key } = await newCaller();
    const target = await receiver([200]);
    const { secret, webhook } = await created(key, target.url);
    const response = await ping(key, webhook.id);
    expect(response.status).toBe(202);
    const { messageId } = response.body as { messageId: string };
    const [delivery] = await target.waitFor(1);
    const headers = delivery?.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(messageId);
    const body = new Verifier(secret).verify(delivery?.body ?? '', headers);
    expect(body).toEqual({
      type: 'ping',
      timestamp: expect.stringMatching(ISO),
      data: { webhookId: webhook.id },
    });
    expect(() =>
      new Verifier(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(delivery?.body ?? '', headers),
    ).toThrow();
    await queue.drained();
    expect(await deliveries(key, webhook.id)).toEqual([
      expect.objectContaining({
        messageId,
        event: 'ping',
        attempt: 1,
        outcome: 'succeeded',
        statusCode: 200,
        error: null,
        nextRetryAt: null,
      }),
    ]);
  });

  it('retries a receiver that fails twice with the same webhook-id, after backoff, and logs each attempt', async () => {
    const { key } = await newCaller();
    const target = await receiver([500, 503, 204]);
    const { secret, webhook } = await created(key, target.url);
    await ping(key, webhook.id);
    const received = await target.waitFor(3);
    const ids = received.map(({ headers }) => headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    for (const { headers, body } of received)
      expect(() => new Verifier(secret).verify(body, headers as Record<string, string>)).not.toThrow();
    // Backoff: the second retry waits about four times the first (units 1 and 4 of 2 ms, ±20 %).
    const [first, second, third] = received.map(({ at }) => at);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(6);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1);
    await queue.drained();
    const log = await deliveries(key, webhook.id);
    expect(log.map(({ attempt, outcome, statusCode }) => [attempt, outcome, statusCode])).toEqual([
      [3, 'succeeded', 204],
      [2, 'retrying', 503],
      [1, 'retrying', 500],
    ]);
    expect(log[1]?.nextRetryAt).toMatch(ISO);
    const shown = (await call(`${webhooksUrl()}/${webhook.id}`, { key })).body as ShownWebhook;
    expect(shown.enabled).toBe(true);
  });

  it('ends an event whose receiver fails every attempt in the delivery log and a disabled subscription, never in the dead-letter queue', async () => {
    // Triggered by an event from the stream (a project created), not by POST /webhooks/{id}/test: the
    // retries run outside any request (issue 22 is about retries that inherit a request's deadline).
    const { key, userId } = await newCaller();
    const target = await receiver([500]);
    const { webhook } = await created(key, target.url, ['project.created']);
    const project = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key,
      json: { name: 'down-for-good' },
    });
    expect(project.status).toBe(201);
    const received = await target.waitFor(8, 20_000);
    await queue.drained();
    expect(new Set(received.map(({ headers }) => headers['webhook-id'])).size).toBe(1);

    const log = await deliveries(key, webhook.id);
    expect(
      log.map(({ attempt, outcome, statusCode, event }) => [attempt, outcome, statusCode, event]),
    ).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1].map((attempt) => [
        attempt,
        attempt === 8 ? 'failed' : 'retrying',
        500,
        'project.created',
      ]),
    );
    expect(new Set(log.map(({ messageId }) => messageId))).toEqual(
      new Set([received[0]?.headers['webhook-id']]),
    );
    expect(log[0]?.nextRetryAt).toBeNull();
    const shown = (await call(`${webhooksUrl()}/${webhook.id}`, { key })).body as ShownWebhook;
    expect(shown).toMatchObject({
      enabled: false,
      disabledAt: expect.stringMatching(ISO),
      disabledReason: DISABLED_REASON,
    });
    // The platform disabled it: its team's audit log says so, once, with what changed.
    const auditUrl = `${gateway.baseUrl}/teams/${personalTeamIdOf(userId)}/audit-events?action=webhook.disabled`;
    let disabledEvents: unknown[] = [];
    for (let round = 0; round < 200 && disabledEvents.length === 0; round++) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      disabledEvents = ((await call(auditUrl, { key })).body as { events: unknown[] }).events;
    }
    expect(disabledEvents).toEqual([
      expect.objectContaining({
        outcome: 'success',
        actor: { type: 'system', id: 'platform' },
        target: { type: 'webhook', id: webhook.id },
        changes: { enabled: { from: true, to: false } },
      }),
    ]);
    // The receiver's failure is the customer's to see, not a dead letter for our on-call.
    expect(queue.deadLetters.filter((message) => message.webhookId === webhook.id)).toEqual([]);
    // No ninth attempt: the event is over.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(target.received).toHaveLength(8);

    const enabled = await call(`${webhooksUrl()}/${webhook.id}`, {
      method: 'PATCH',
      key,
      json: { enabled: true },
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
  });
});
