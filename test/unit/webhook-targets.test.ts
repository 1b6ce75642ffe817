import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseSection } from '#shared/runtime/config.ts';
import { MAX_ATTEMPTS, retryDelaySeconds, scheduleSeconds } from '#shared/webhooks/retry-schedule.ts';
import { sendWebhook } from '#shared/webhooks/sender.ts';
import { WebhookSettingsSchema } from '#shared/webhooks/settings.ts';
import { refusalOf, targetRefusalOf, urlRefusalOf } from '#shared/webhooks/targets.ts';

// Where deliveries may go, checked on addresses, URLs and real connections; and when they are retried.

const stack = { allowPrivateTargets: false };
const local = { allowPrivateTargets: true };

describe('refusalOf', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '169.254.169.254',
    '169.254.170.2',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    '64:ff9b::a9fe:a9fe',
    'fd00:ec2::254',
  ])('refuses %s in the stack', (address) => {
    expect(refusalOf(address, stack)).toEqual(expect.any(String));
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public %s',
    (address) => {
      expect(refusalOf(address, stack)).toBeUndefined();
    },
  );

  it('allows loopback and private addresses on a local run that asks, never the metadata ones', () => {
    expect(refusalOf('127.0.0.1', local)).toBeUndefined();
    expect(refusalOf('10.0.0.1', local)).toBeUndefined();
    expect(refusalOf('169.254.169.254', local)).toMatch(/metadata/);
    expect(refusalOf('::ffff:169.254.169.254', local)).toMatch(/metadata/);
    expect(refusalOf('fd00:ec2::254', local)).toMatch(/metadata/);
  });
});

describe('URLs', () => {
  it('refuses http in the stack and allows it on a local run that asks', () => {
    expect(urlRefusalOf(new URL('http://example.com/'), stack)).toBe('must be an https URL');
    expect(urlRefusalOf(new URL('http://example.com/'), local)).toBeUndefined();
    expect(urlRefusalOf(new URL('https://example.com/'), stack)).toBeUndefined();
  });

  it.each([
    'https://localhost/hooks',
    'https://127.0.0.1/',
    'https://10.1.2.3/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
  ])('refuses %s in the stack, resolving the host first', async (url) => {
    expect(await targetRefusalOf(url, stack)).toEqual(expect.any(String));
  });
});

describe('sendWebhook', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let answer: (res: import('node:http').ServerResponse) => void = (res) => res.end();
  beforeAll(async () => {
    server = createServer((_req, res) => answer(res));
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  const post = (url: string, policy = local, timeoutMs?: number) =>
    sendWebhook({ url, headers: {}, body: '{}', policy, ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  it('never connects to a name that resolves to loopback in the stack: the lookup refuses it', async () => {
    const before = connections;
    const result = await post(`https://localhost:${port}/`, stack);
    expect(result).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/localhost resolves to .*loopback/),
    });
    expect(connections).toBe(before);
  });

  it('never connects to http in the stack, nor to the metadata address anywhere', async () => {
    expect(await post(`http://127.0.0.1:${port}/`, stack)).toMatchObject({
      ok: false,
      error: 'refused: must be an https URL',
    });
    expect(await post('http://169.254.169.254/latest/meta-data/', local)).toMatchObject({
      ok: false,
      error: expect.stringContaining('metadata'),
    });
  });

  it('counts a 2xx as success and does not follow a redirect', async () => {
    answer = (res) => res.writeHead(204).end();
    expect(await post(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: true, statusCode: 204 });
    const before = connections;
    answer = (res) => res.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
    expect(await post(`http://127.0.0.1:${port}/`)).toMatchObject({
      ok: false,
      statusCode: 302,
      error: null,
    });
    expect(connections).toBe(before + 1);
  });

  it('reads a few KiB of an answer and no more, and gives up on a receiver that does not answer', async () => {
    answer = (res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(64 * 1024));
      // never ends
    };
    expect(await post(`http://127.0.0.1:${port}/`, local, 2_000)).toMatchObject({
      ok: true,
      statusCode: 200,
    });
    answer = () => undefined;
    expect(await post(`http://127.0.0.1:${port}/`, local, 200)).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'timeout: no answer within 200 ms',
    });
  });
});

describe('the retry schedule', () => {
  it('tries eight times over about a day, each wait about four times the last up to ten minutes-units', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const hours = scheduleSeconds(60) / 3600;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(26);
    expect(retryDelaySeconds(1, 60, 0.5)).toBe(60);
    expect(retryDelaySeconds(2, 60, 0.5)).toBe(240);
    expect(retryDelaySeconds(7, 60, 0.5)).toBe(36_000);
    expect(retryDelaySeconds(8, 60, 0.5)).toBeUndefined();
  });

  it('jitters each wait by up to 20 % either way', () => {
    expect(retryDelaySeconds(3, 60, 0)).toBeCloseTo(16 * 60 * 0.8);
    expect(retryDelaySeconds(3, 60, 0.999_999)).toBeCloseTo(16 * 60 * 1.2, 2);
  });

  it('is scaled by WEBHOOK_RETRY_BASE_SECONDS, and refuses a value that is not a positive number', () => {
    const retryBaseSeconds = (value?: string) =>
      parseSection(WebhookSettingsSchema, { WEBHOOK_RETRY_BASE_SECONDS: value }).WEBHOOK_RETRY_BASE_SECONDS;
    expect(retryBaseSeconds()).toBe(60);
    expect(retryBaseSeconds('0.002')).toBe(0.002);
    expect(() => retryBaseSeconds('soon')).toThrow('WEBHOOK_RETRY_BASE_SECONDS');
    expect(() => retryBaseSeconds('0')).toThrow('WEBHOOK_RETRY_BASE_SECONDS');
  });
});
