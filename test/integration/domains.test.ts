import { randomUUID } from 'node:crypto';
import { startLocalSchedules } from '#infra/local/schedules.ts';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import { clock } from '#shared/runtime/clock.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { startDnsServer } from '../support/dns-server.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import type { JsonResponse } from '../support/http.ts';
import { call } from '../support/http.ts';
import { createOwnDomainsTable, ownDomainsTableSettings } from '../support/own-domains-table.ts';
import { overrideSettings } from '../support/settings.ts';
import * as users from '../support/users.ts';
import { newCaller } from '../support/users.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// Custom domains over HTTP, with DNS answered by a server this file controls (on loopback: no
// network), the background checks run by the local schedule every 100 ms, and webhooks delivered to
// receivers on loopback. The file has a domains table of its own: moving the clock a week makes every
// pending domain in the table due (and expired), which must not reach another file's domains.

type LocalQueue = import('#infra/local/webhook-queue.ts').LocalWebhookQueue;
type StreamPoller = import('#infra/local/stream-poller.ts').StreamPoller;
type Repeating = import('#infra/local/every.ts').Repeating;

const TARGET = 'edge.platform.test';
const CHECK_TIMEOUT_MS = 1000;

let dns: TestDnsServer;
let gateway: TestGateway;
let queue: LocalQueue;
let poller: StreamPoller;
let schedules: Repeating;
let restoreSettings: () => void;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  dns = await startDnsServer();
  restoreSettings = overrideSettings({
    DNS_SERVERS: dns.address,
    DOMAIN_TARGET: TARGET,
    DOMAIN_CHECK_TIMEOUT_MS: String(CHECK_TIMEOUT_MS),
    ...ownDomainsTableSettings(),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  await createOwnDomainsTable();
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    accepts: users.ownedByThisRun,
  });
  schedules = await startLocalSchedules({ intervalMs: 100 });
}, 30_000);

const realNow = Date.now;
afterEach(() => {
  clock.now = realNow;
  dns.silent = false;
});

afterAll(async () => {
  await schedules?.stop();
  await poller?.stop();
  await queue?.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await gateway?.close();
  await dns?.close();
  restoreSettings();
});

interface DomainRecord {
  purpose: 'ownership' | 'routing';
  type: 'TXT' | 'CNAME';
  name: string;
  requiredValue: string;
  observedValues: string[];
  status: 'ok' | 'missing' | 'mismatch';
  error: string | null;
}

interface Domain {
  name: string;
  projectId: string;
  status: 'pending' | 'verified' | 'expired';
  records: [DomainRecord, DomainRecord];
  createdAt: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  expiresAt: string;
}

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;

/** A name no other test uses, under example.com. */
const uniqueName = (prefix = 'd') => `${prefix}${randomUUID().slice(0, 8)}.example.com`;

const domainsUrl = (projectId: string) => `${gateway.baseUrl}/projects/${projectId}/domains`;
const domainUrl = (projectId: string, name: string) => `${domainsUrl(projectId)}/${encodeURIComponent(name)}`;

async function newProject(key: string): Promise<string> {
  const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'site' } });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

/** A caller with a project. */
async function owner(): Promise<{ key: string; userId: string; projectId: string }> {
  const caller = await newCaller();
  return { ...caller, projectId: await newProject(caller.key) };
}

const add = (key: string, projectId: string, name: string): Promise<JsonResponse> =>
  call(domainsUrl(projectId), { method: 'POST', key, json: { name } });

async function added(key: string, projectId: string, name = uniqueName()): Promise<Domain> {
  const response = await add(key, projectId, name);
  expect(response.status).toBe(201);
  return response.body as Domain;
}

async function verify(key: string, projectId: string, name: string): Promise<Domain> {
  const response = await call(`${domainUrl(projectId, name)}/verify`, { method: 'POST', key });
  expect(response.status).toBe(200);
  return response.body as Domain;
}

async function read(key: string, projectId: string, name: string): Promise<Domain> {
  const response = await call(domainUrl(projectId, name), { key });
  expect(response.status).toBe(200);
  return response.body as Domain;
}

/** Reads the domain until `done` holds (the background schedule runs every 100 ms). */
async function eventually(
  key: string,
  projectId: string,
  name: string,
  done: (domain: Domain) => boolean,
): Promise<Domain> {
  for (let round = 0; ; round++) {
    const domain = await read(key, projectId, name);
    if (done(domain) || round >= 200) return domain;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A receiver subscribed to the domain events of `key`'s user. */
async function subscribed(key: string): Promise<WebhookReceiver> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const hook = await call(`${gateway.baseUrl}/webhooks`, {
    method: 'POST',
    key,
    json: { url: receiver.url, events: ['domain.verified', 'domain.expired'] },
  });
  expect(hook.status).toBe(201);
  return receiver;
}

const txtName = (name: string) => `_platform-challenge.${name}`;

describe('adding a domain', () => {
  it('answers it pending, with the TXT record to create and the CNAME to point, checked first in a minute', async () => {
    const { key, projectId } = await owner();
    const name = uniqueName();
    const response = await add(key, projectId, name);
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/v1/projects/${projectId}/domains/${name}`);
    const domain = response.body as Domain;
    expect(domain).toEqual({
      name,
      projectId,
      status: 'pending',
      records: [
        {
          purpose: 'ownership',
          type: 'TXT',
          name: txtName(name),
          requiredValue: expect.stringMatching(/^platform-verification=[0-9a-f]{40}$/),
          observedValues: [],
          status: 'missing',
          error: null,
        },
        {
          purpose: 'routing',
          type: 'CNAME',
          name,
          requiredValue: TARGET,
          observedValues: [],
          status: 'missing',
          error: null,
        },
      ],
      createdAt: ISO,
      verifiedAt: null,
      lastCheckedAt: null,
      nextCheckAt: new Date(Date.parse(domain.createdAt) + MINUTE).toISOString(),
      expiresAt: new Date(Date.parse(domain.createdAt) + WEEK).toISOString(),
    });
    expect(await read(key, projectId, name)).toEqual(domain);
    const list = await call(domainsUrl(projectId), { key });
    expect(list.body).toEqual({ domains: [domain], nextCursor: null });
  });

  it('stores a Unicode name as its A-label and upper case as lower, and finds it by either', async () => {
    const { key, projectId } = await owner();
    const label = randomUUID().slice(0, 6);
    const domain = await added(key, projectId, `Bücher-${label}.Example.COM.`);
    expect(domain.name).toMatch(new RegExp(`^xn--bcher-${label}-[a-z0-9]+\\.example\\.com$`));
    expect((await read(key, projectId, `bücher-${label}.example.com`)).name).toBe(domain.name);
  });

  it('finds a domain by its name in the path encoded (as API Gateway hands it over) or plain, and refuses an escape that is not UTF-8', async () => {
    const { key, projectId } = await owner();
    const label = randomUUID().slice(0, 6);
    const domain = await added(key, projectId, `café-${label}.example.com`);
    const at = (path: string) => call(`${domainsUrl(projectId)}/${path}`, { key });
    const found = await Promise.all(
      [`caf%C3%A9-${label}.example.com`, `caf%c3%a9-${label}.example.com`, domain.name].map(at),
    );
    expect(found.map(({ status, body }) => [status, (body as Domain).name])).toEqual([
      [200, domain.name],
      [200, domain.name],
      [200, domain.name],
    ]);
    const malformed = await at(`caf%E9-${label}.example.com`);
    expect({ status: malformed.status, body: malformed.body }).toMatchObject({
      status: 400,
      body: { error: 'validation_error', field: 'name' },
    });
  });

  it.each([
    ['one label', 'localhost'],
    ['a wildcard', '*.example.com'],
    ['an IPv4 address', '192.168.0.1'],
    ['what the host parser reads as an IPv4 address', 'www.1.2.3'],
    ['an IPv6 address', '[::1]'],
    ['a public suffix (ICANN section)', 'co.uk'],
    ['a public suffix (private section)', 'github.io'],
    ['a label starting with a hyphen', '-www.example.com'],
    ['an underscore', 'www_1.example.com'],
    ['a percent-escape', 'exa%6dple.com'],
    ['an empty label', 'www..example.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.example.com`],
    ['254 characters', `${'abcdefghi.'.repeat(24)}ab.example.com`],
    ['an empty name', ''],
  ])('refuses %s (400 naming `name`)', async (_what, name) => {
    const { key, projectId } = await owner();
    const response = await add(key, projectId, name);
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 400,
      body: { error: 'validation_error', field: 'name' },
    });
    expect((await call(domainsUrl(projectId), { key })).body).toEqual({ domains: [], nextCursor: null });
  });

  it('takes a name under a public suffix, and one with a trailing dot: apexes, told to create an ALIAS, not a CNAME', async () => {
    const { key, projectId } = await owner();
    const label = randomUUID().slice(0, 8);
    const apexes = [
      await added(key, projectId, `shop-${label}.co.uk`),
      await added(key, projectId, `me-${label}.github.io.`),
    ];
    expect(apexes.map(({ name, records: [, routing] }) => ({ name, routing }))).toEqual(
      [`shop-${label}.co.uk`, `me-${label}.github.io`].map((name) => ({
        name,
        routing: expect.objectContaining({ type: 'ALIAS', name, requiredValue: TARGET }),
      })),
    );
  });

  it('gives one name to one of two projects claiming it at once; the other hears 409 without who holds it', async () => {
    const [first, second] = await Promise.all([owner(), owner()]);
    const name = uniqueName('race');
    const answers = await Promise.all([
      add(first.key, first.projectId, name),
      add(second.key, second.projectId, name),
    ]);
    expect(answers.map(({ status }) => status).sort()).toEqual([201, 409]);
    const refused = answers.find(({ status }) => status === 409);
    expect(refused?.body).toMatchObject({
      error: 'conflict',
      message: `The domain ${name} is already added to a project`,
    });
    for (const secret of [first.projectId, second.projectId, first.userId, second.userId])
      expect(refused?.text).not.toContain(secret);
    // The same project asking again is told the same.
    const winner = answers[0]?.status === 201 ? first : second;
    expect((await add(winner.key, winner.projectId, name)).status).toBe(409);
  });

  it('holds a project to 50 names when 51 are added at once', async () => {
    const { key, projectId } = await owner();
    const answers = await Promise.all(
      Array.from({ length: 51 }, () => add(key, projectId, uniqueName('many'))),
    );
    const statuses = answers.map(({ status }) => status);
    expect({
      created: statuses.filter((status) => status === 201).length,
      refused: statuses.filter((status) => status === 409).length,
    }).toEqual({ created: 50, refused: 1 });
    expect(answers.find(({ status }) => status === 409)?.body).toMatchObject({
      message: `Project ${projectId} has 50 domains already, the most a project may have; remove one first`,
    });
    // A removal gives the place back.
    const kept = (answers.find(({ status }) => status === 201)?.body as Domain | undefined)?.name ?? '';
    expect((await call(domainUrl(projectId, kept), { method: 'DELETE', key })).status).toBe(204);
    expect((await add(key, projectId, uniqueName('many'))).status).toBe(201);
  });

  it('gives each project its own ownership value for the same name', async () => {
    const [first, second] = await Promise.all([owner(), owner()]);
    const name = uniqueName();
    const firstValue = (await added(first.key, first.projectId, name)).records[0].requiredValue;
    expect((await call(domainUrl(first.projectId, name), { method: 'DELETE', key: first.key })).status).toBe(
      204,
    );
    const secondValue = (await added(second.key, second.projectId, name)).records[0].requiredValue;
    expect(secondValue).not.toBe(firstValue);
  });
});

describe('checking a domain now (verify)', () => {
  it('reports a missing TXT record and keeps the domain pending', async () => {
    const { key, projectId } = await owner();
    const { name } = await added(key, projectId);
    const domain = await verify(key, projectId, name);
    expect(domain).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      lastCheckedAt: ISO,
      records: [
        { purpose: 'ownership', observedValues: [], status: 'missing', error: null },
        { purpose: 'routing', observedValues: [], status: 'missing', error: null },
      ],
    });
    expect(await read(key, projectId, name)).toEqual(domain);
  });

  it('reports a TXT record holding something else as a mismatch, showing what it holds', async () => {
    const { key, projectId } = await owner();
    const { name } = await added(key, projectId);
    dns.setTxt(txtName(name), ['google-site-verification=abc', 'platform-verification=0000']);
    const domain = await verify(key, projectId, name);
    expect(domain.status).toBe('pending');
    expect(domain.records[0]).toMatchObject({
      observedValues: ['google-site-verification=abc', 'platform-verification=0000'],
      status: 'mismatch',
      error: null,
    });
  });

  it('verifies when one of several TXT records holds the value split into strings', async () => {
    const { key, projectId } = await owner();
    const { name, records } = await added(key, projectId);
    const value = records[0].requiredValue;
    dns.setTxt(txtName(name), ['v=spf1 -all', [value.slice(0, 10), value.slice(10)]]);
    const domain = await verify(key, projectId, name);
    expect(domain).toMatchObject({
      status: 'verified',
      verifiedAt: domain.lastCheckedAt,
      nextCheckAt: null,
      records: [{ observedValues: ['v=spf1 -all', value], status: 'ok', error: null }, {}],
    });
    expect(await read(key, projectId, name)).toEqual(domain);
  });

  it('reports routing ok, mismatched or missing, and never requires it', async () => {
    const { key, projectId } = await owner();
    const [pointed, elsewhere, unrouted] = await Promise.all([
      added(key, projectId),
      added(key, projectId),
      added(key, projectId),
    ]);
    for (const domain of [pointed, elsewhere, unrouted])
      dns.setTxt(txtName(domain.name), [domain.records[0].requiredValue]);
    dns.setCname(pointed.name, `${TARGET.toUpperCase()}.`);
    dns.setCname(elsewhere.name, 'old-host.example.net');
    const checked = await Promise.all(
      [pointed, elsewhere, unrouted].map(({ name }) => verify(key, projectId, name)),
    );
    expect(checked.map(({ status, records: [, routing] }) => ({ status, routing }))).toEqual([
      {
        status: 'verified',
        routing: {
          purpose: 'routing',
          type: 'CNAME',
          name: pointed.name,
          requiredValue: TARGET,
          observedValues: [TARGET],
          status: 'ok',
          error: null,
        },
      },
      {
        status: 'verified',
        routing: {
          purpose: 'routing',
          type: 'CNAME',
          name: elsewhere.name,
          requiredValue: TARGET,
          observedValues: ['old-host.example.net'],
          status: 'mismatch',
          error: null,
        },
      },
      {
        status: 'verified',
        routing: {
          purpose: 'routing',
          type: 'CNAME',
          name: unrouted.name,
          requiredValue: TARGET,
          observedValues: [],
          status: 'missing',
          error: null,
        },
      },
    ]);
  });

  it('answers within the deadline when DNS is silent, pending, with the reason on each record', async () => {
    const { key, projectId } = await owner();
    const { name } = await added(key, projectId);
    dns.silent = true;
    const asked = dns.questions.length;
    const domain = await verify(key, projectId, name);
    expect(dns.questions.length).toBeGreaterThan(asked);
    expect(domain).toMatchObject({
      status: 'pending',
      lastCheckedAt: ISO,
      records: [
        {
          observedValues: [],
          status: 'missing',
          error: `DNS did not answer for ${txtName(name)} within ${CHECK_TIMEOUT_MS / 1000} s`,
        },
        {
          observedValues: [],
          status: 'missing',
          error: `DNS did not answer for ${name} within ${CHECK_TIMEOUT_MS / 1000} s`,
        },
      ],
    });
  });
});

describe('checking again by itself', () => {
  it('verifies a domain once its record is there, without a call, and says so to webhooks', async () => {
    const { key, projectId } = await owner();
    const receiver = await subscribed(key);
    const { name, records } = await added(key, projectId);
    dns.setTxt(txtName(name), [records[0].requiredValue]);
    clock.now = () => realNow() + MINUTE + 1000;
    const domain = await eventually(key, projectId, name, ({ status }) => status === 'verified');
    expect(domain).toMatchObject({
      status: 'verified',
      verifiedAt: ISO,
      nextCheckAt: null,
      records: [{ status: 'ok' }, {}],
    });
    const [delivery] = await receiver.waitFor(1);
    expect(JSON.parse(delivery?.body ?? '{}')).toEqual({
      type: 'domain.verified',
      timestamp: ISO,
      data: domain,
    });
  });

  it('checks a pending domain again later each time: a minute, then two', async () => {
    const { key, projectId } = await owner();
    const { name, createdAt } = await added(key, projectId);
    const firstDue = Date.parse(createdAt) + MINUTE;
    clock.now = () => firstDue + 1000;
    const checked = await eventually(key, projectId, name, ({ lastCheckedAt }) => lastCheckedAt !== null);
    expect(checked.status).toBe('pending');
    expect(Date.parse(checked.nextCheckAt ?? '') - Date.parse(checked.lastCheckedAt ?? '')).toBe(2 * MINUTE);
  });

  it('expires a domain still pending 7 days after it was added, says so to webhooks, and verifies it no more', async () => {
    const { key, projectId } = await owner();
    const receiver = await subscribed(key);
    const { name, createdAt, records } = await added(key, projectId);
    clock.now = () => Date.parse(createdAt) + WEEK + 1000;
    const domain = await eventually(key, projectId, name, ({ status }) => status === 'expired');
    expect(domain).toMatchObject({ status: 'expired', verifiedAt: null, nextCheckAt: null });
    const [delivery] = await receiver.waitFor(1);
    expect(JSON.parse(delivery?.body ?? '{}')).toEqual({
      type: 'domain.expired',
      timestamp: ISO,
      data: domain,
    });
    dns.setTxt(txtName(name), [records[0].requiredValue]);
    const again = await call(`${domainUrl(projectId, name)}/verify`, { method: 'POST', key });
    expect({ status: again.status, body: again.body }).toMatchObject({
      status: 409,
      body: { error: 'conflict' },
    });
  });
});

describe('a claim that lapsed unverified', () => {
  it('holds its name for no one: another project takes it over, and the project that let it lapse no longer lists it', async () => {
    const [first, second] = await Promise.all([owner(), owner()]);
    const { name, createdAt } = await added(first.key, first.projectId);
    expect((await add(second.key, second.projectId, name)).status).toBe(409);
    // Past its expiry, whether or not the background check has marked it expired yet.
    clock.now = () => Date.parse(createdAt) + WEEK + 1000;
    const taken = await add(second.key, second.projectId, name);
    expect([taken.status, taken.body]).toEqual([
      201,
      expect.objectContaining({ name, projectId: second.projectId, status: 'pending' }),
    ]);
    expect((await call(domainUrl(first.projectId, name), { key: first.key })).status).toBe(404);
    const listed = await call(domainsUrl(first.projectId), { key: first.key });
    expect((listed.body as { domains: unknown[] }).domains).toEqual([]);
    // The new claim holds it as any pending one does.
    expect((await add(first.key, first.projectId, name)).status).toBe(409);
  });

  it('is taken over by its own project adding the name again', async () => {
    const { key, projectId } = await owner();
    const { name, createdAt } = await added(key, projectId);
    clock.now = () => Date.parse(createdAt) + WEEK + 1000;
    await eventually(key, projectId, name, ({ status }) => status === 'expired');
    const again = await add(key, projectId, name);
    expect([again.status, again.body]).toEqual([201, expect.objectContaining({ name, status: 'pending' })]);
    const listed = await call(domainsUrl(projectId), { key });
    expect((listed.body as { domains: { name: string }[] }).domains.map((domain) => domain.name)).toEqual([
      name,
    ]);
  });
});

describe('removing', () => {
  it('frees the name for anyone', async () => {
    const [first, second] = await Promise.all([owner(), owner()]);
    const { name } = await added(first.key, first.projectId);
    expect((await call(domainUrl(first.projectId, name), { method: 'DELETE', key: first.key })).status).toBe(
      204,
    );
    expect((await call(domainUrl(first.projectId, name), { key: first.key })).status).toBe(404);
    expect((await call(domainUrl(first.projectId, name), { method: 'DELETE', key: first.key })).status).toBe(
      404,
    );
    expect((await add(second.key, second.projectId, name)).status).toBe(201);
  });

  it("goes with the project: a deleted project's names are free again", async () => {
    const [first, second] = await Promise.all([owner(), owner()]);
    const { name } = await added(first.key, first.projectId);
    expect(
      (await call(`${gateway.baseUrl}/projects/${first.projectId}`, { method: 'DELETE', key: first.key }))
        .status,
    ).toBe(204);
    let status = 0;
    for (let round = 0; round < 200 && status !== 201; round++) {
      status = (await add(second.key, second.projectId, name)).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(201);
  });
});

describe("another user's project", () => {
  it('is 404 for every domain route, and so is a name another project holds', async () => {
    const [holder, stranger] = await Promise.all([owner(), owner()]);
    const { name } = await added(holder.key, holder.projectId);
    const theirs = [
      call(domainsUrl(holder.projectId), { key: stranger.key }),
      add(stranger.key, holder.projectId, uniqueName()),
      call(domainUrl(holder.projectId, name), { key: stranger.key }),
      call(`${domainUrl(holder.projectId, name)}/verify`, { method: 'POST', key: stranger.key }),
      call(domainUrl(holder.projectId, name), { method: 'DELETE', key: stranger.key }),
      // Through the stranger's own project: the name is not its.
      call(domainUrl(stranger.projectId, name), { key: stranger.key }),
      call(`${domainUrl(stranger.projectId, name)}/verify`, { method: 'POST', key: stranger.key }),
      call(domainUrl(stranger.projectId, name), { method: 'DELETE', key: stranger.key }),
    ];
    expect((await Promise.all(theirs)).map(({ status }) => status)).toEqual([
      404, 404, 404, 404, 404, 404, 404, 404,
    ]);
    expect((await read(holder.key, holder.projectId, name)).name).toBe(name);
  });
});
