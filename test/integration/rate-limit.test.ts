import { readKeyCounter } from '#shared/db/keys/api-keys.ts';
import { hashApiKey } from '#shared/model/api-key-format.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const realNow = restoreClockAfterEach();

/** Pins the clock `offset` seconds into a 60-second window (the default window length). */
function pinClock(windowStart: number, offset: number): void {
  clock.now = () => (windowStart + offset) * 1000;
}
const nextWindowStart = (): number => Math.floor(realNow() / 1000 / 60) * 60 + 60;

const listProjects = (key: string) => call(`${gateway.baseUrl}/projects`, { key });

describe('per-key rate limiting', () => {
  it('counts down X-RateLimit-Remaining and reports the window end as epoch seconds', async () => {
    const start = nextWindowStart();
    pinClock(start, 5);
    const { key } = await newCaller({ rateLimit: 3 });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(rateLimitOf(await listProjects(key)));
    expect(seen).toEqual([
      { limit: 3, remaining: 2, reset: start + 60 },
      { limit: 3, remaining: 1, reset: start + 60 },
      { limit: 3, remaining: 0, reset: start + 60 },
    ]);
  });

  it('answers 429 with retryAfter in whole seconds, no message, Retry-After and the headers', async () => {
    const start = nextWindowStart();
    pinClock(start, 15);
    const { key } = await newCaller({ rateLimit: 1 });
    expect((await listProjects(key)).status).toBe(200);
    const limited = await listProjects(key);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limit_exceeded', retryAfter: 45 });
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(rateLimitOf(limited)).toEqual({ limit: 1, remaining: 0, reset: start + 60 });
  });

  it('does not count rejected requests', async () => {
    const start = nextWindowStart();
    pinClock(start, 1);
    const { key } = await newCaller({ rateLimit: 2 });
    for (let i = 0; i < 2; i++) await listProjects(key);
    for (let i = 0; i < 5; i++) expect((await listProjects(key)).status).toBe(429);
    expect(await readKeyCounter(hashApiKey(key))).toEqual({ windowStart: start, windowCount: 2 });
  });

  it('opens a fresh allowance when the window ends, without sleeping through it', async () => {
    const start = nextWindowStart();
    pinClock(start, 59);
    const { key } = await newCaller({ rateLimit: 2 });
    await listProjects(key);
    await listProjects(key);
    expect((await listProjects(key)).status).toBe(429);

    pinClock(start, 60); // first second of the next window
    const fresh = await listProjects(key);
    expect(fresh.status).toBe(200);
    expect(rateLimitOf(fresh)).toEqual({ limit: 2, remaining: 1, reset: start + 120 });
    expect(await readKeyCounter(hashApiKey(key))).toEqual({ windowStart: start + 60, windowCount: 1 });
  });

  it('says retryAfter 1, never 0, in the last second of a window', async () => {
    const start = nextWindowStart();
    pinClock(start, 59);
    const { key } = await newCaller({ rateLimit: 1 });
    await listProjects(key);
    const limited = await listProjects(key);
    expect(limited.body).toEqual({ error: 'rate_limit_exceeded', retryAfter: 1 });
  });

  it('admits exactly the remaining allowance of simultaneous requests', async () => {
    const limit = 25;
    const used = 5;
    const simultaneous = 60;
    // Mid-window: on a busy machine the burst takes seconds, and must not open a new window.
    pinClock(nextWindowStart(), 30);
    const { key } = await newCaller({ rateLimit: limit });
    for (let i = 0; i < used; i++) expect((await listProjects(key)).status).toBe(200);

    const responses = await Promise.all(Array.from({ length: simultaneous }, () => listProjects(key)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit - used);
    expect(statuses.filter((status) => status === 429)).toHaveLength(simultaneous - (limit - used));
    const counter = await readKeyCounter(hashApiKey(key));
    expect(counter?.windowCount).toBe(limit);
  });

  it('stays exact when simultaneous requests cross into a new window together', async () => {
    const start = nextWindowStart();
    pinClock(start, 30);
    const { key } = await newCaller({ rateLimit: 10 });
    await listProjects(key); // the stored window is now `start`
    pinClock(start, 60); // every request below must open or use the next window
    const responses = await Promise.all(Array.from({ length: 30 }, () => listProjects(key)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(10);
    expect(await readKeyCounter(hashApiKey(key))).toEqual({ windowStart: start + 60, windowCount: 10 });
  });

  it('gives every key its own allowance', async () => {
    const start = nextWindowStart();
    pinClock(start, 1);
    const first = await newCaller({ rateLimit: 1 });
    const second = await newCaller({ rateLimit: 1 });
    expect((await listProjects(first.key)).status).toBe(200);
    expect((await listProjects(first.key)).status).toBe(429);
    expect((await listProjects(second.key)).status).toBe(200);
  });

  it('falls back to RATE_LIMIT_MAX for a key without its own limit', async () => {
    const { key } = await newCaller();
    expect(rateLimitOf(await listProjects(key)).limit).toBe(100);
  });

  it('reports the allowance on every status a keyed request can get', async () => {
    const start = nextWindowStart();
    pinClock(start, 10);
    const { key } = await newCaller({ rateLimit: 9 });
    const base = gateway.baseUrl;
    const post = (path: string, json: unknown) => call(`${base}${path}`, { method: 'POST', key, json });
    const responses = [
      await call(`${base}/projects`, { key }), // 200
      await post('/projects', { name: 'web' }), // 201
      await post('/projects', { name: 7 }), // 400
      await call(`${base}/projects/prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A`, { key }), // 404
      await call(`${base}/projects`, { method: 'PUT', key }), // 405
      await post('/projects', { name: 'x'.repeat(70_000) }), // 413
      await call(`${base}/projects`, { method: 'POST', key, rawBody: 'name=web' }), // 415
    ];
    for (let i = responses.length; i < 9; i++) responses.push(await call(`${base}/projects`, { key }));
    responses.push(await call(`${base}/projects`, { key })); // 429
    expect(responses.map((response) => response.status)).toEqual([
      200, 201, 400, 404, 405, 413, 415, 200, 200, 429,
    ]);
    expect(responses.map((response) => rateLimitOf(response))).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1, 0, 0].map((remaining) => ({ limit: 9, remaining, reset: start + 60 })),
    );
  });
});
