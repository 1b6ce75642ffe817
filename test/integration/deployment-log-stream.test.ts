import { restoreClockAfterEach } from '../support/clock.ts';
import type { ServerEvent } from '../support/event-stream.ts';
import { collect, followToEnd, openEventStream } from '../support/event-stream.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { builderOf, newDeployment } from '../support/resources.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';
import { pinMidWindow } from '../support/window.ts';

// Following a build log through the local gateway, which streams a function's answer as API Gateway's
// streaming integration does: every line once and in order, the status events and the end; a
// reconnect with Last-Event-ID that misses nothing and repeats nothing; the keepalive comment and
// the stream's own end with `event: reconnect`. The stream's intervals are shortened for the suite.

const LIFETIME_MS = 4_000;
const KEEPALIVE_MS = 300;
const restoreSettings = overrideSettings({
  LOG_STREAM_POLL_MS: '100',
  LOG_STREAM_KEEPALIVE_MS: String(KEEPALIVE_MS),
  LOG_STREAM_LIFETIME_MS: String(LIFETIME_MS),
});
// Settings are read when the service's modules load: everything that loads them is imported after.
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

restoreClockAfterEach();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const logsUrl = (id: string) => `${gateway.baseUrl}/deployments/${id}/logs`;

/** Appends as the build system of the user whose key this is. */
async function append(key: string, id: string, texts: string[]): Promise<void> {
  const response = await call(logsUrl(id), {
    method: 'POST',
    key: await builderOf(gateway.baseUrl, key),
    json: { lines: texts.map((text) => ({ text })) },
  });
  expect(response.status).toBe(201);
}

async function report(key: string, id: string, status: string): Promise<void> {
  const response = await call(`${gateway.baseUrl}/deployments/${id}/events`, {
    method: 'POST',
    key,
    json: { status },
  });
  expect(response.status).toBe(200);
}

const dataOf = (event: ServerEvent): unknown => JSON.parse(event.data ?? 'null');
const logTexts = (events: ServerEvent[]) =>
  events.filter((event) => event.event === 'log').map((event) => (dataOf(event) as { text: string }).text);
/** The events without keepalives, as [name, data] pairs (log lines by id and text). */
const summary = (events: ServerEvent[]) =>
  events
    .filter((event) => event.comment === undefined)
    .map((event) =>
      event.event === 'log'
        ? ['log', event.id, (dataOf(event) as { text: string }).text]
        : [event.event, (dataOf(event) as { status?: string }).status],
    );

/** Appends lines and moves the deployment to ready while a client follows. */
async function build(key: string, id: string): Promise<void> {
  await pause(150);
  await append(key, id, ['queued 1', 'queued 2']);
  await report(key, id, 'building');
  for (let batch = 0; batch < 4; batch++) {
    await append(key, id, [`build ${batch}a`, `build ${batch}b`]);
    await pause(60);
  }
  await report(key, id, 'ready');
}

it('follows a build: the lines once and in order, each status, then the end', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await append(key, id, ['before the stream']);
  // Followed as a browser's EventSource follows it: a build slower than the stream's lifetime (a busy
  // machine) goes on over a reconnect, which the next test checks on its own.
  const [{ events, headers }] = await Promise.all([followToEnd(logsUrl(id), { key }), build(key, id)]);
  expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(headers.get('cache-control')).toBe('no-cache');

  expect(summary(events)[0]).toEqual(['status', 'queued']);
  expect(events.filter((event) => event.event === 'log').map((event) => event.id)).toEqual(
    Array.from({ length: 11 }, (_, index) => String(index + 1)),
  );
  // Every line once, in order, whatever rounds they arrived in.
  expect(logTexts(events)).toEqual([
    'before the stream',
    'queued 1',
    'queued 2',
    ...['0', '1', '2', '3'].flatMap((batch) => [`build ${batch}a`, `build ${batch}b`]),
  ]);
  const statuses = events.filter((event) => event.event === 'status').map((event) => dataOf(event));
  expect(statuses).toEqual([
    { status: 'queued', at: expect.any(String) },
    { status: 'building', at: expect.any(String) },
    { status: 'ready', at: expect.any(String) },
  ]);
  expect(events.at(-1)).toEqual({ event: 'end', data: '{"status":"ready"}' });
});

it('resumes after Last-Event-ID on a reconnect: nothing missed, nothing twice', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await report(key, id, 'building');
  await append(key, id, ['one', 'two', 'three']);
  const first = await openEventStream(logsUrl(id), { key });
  const before = await collect(first.events, (event) => event.id === '2');
  first.close();
  // Lines appended while the client is away.
  await append(key, id, ['four', 'five']);
  const [{ events: after }] = await Promise.all([
    followToEnd(`${logsUrl(id)}?since=1`, { key, headers: { 'Last-Event-ID': '2' } }),
    (async () => {
      await pause(200);
      await append(key, id, ['six']);
      await report(key, id, 'error');
    })(),
  ]);
  expect([...logTexts(before), ...logTexts(after)]).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
  expect(after.filter((event) => event.event === 'log').map((event) => event.id)).toEqual([
    '3',
    '4',
    '5',
    '6',
  ]);
  // The status is sent on connect again, then the end.
  expect(summary(after)[0]).toEqual(['status', 'building']);
  expect(summary(after).slice(-2)).toEqual([
    ['status', 'error'],
    ['end', 'error'],
  ]);
});

it('sends a reconnect that finds the build over its missing lines first, then the final status, then the end', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await report(key, id, 'building');
  await append(key, id, ['one', 'two', 'three']);
  await report(key, id, 'ready');
  // The client had line 1 when its stream ended; the build finished while it was away.
  const { events } = await followToEnd(logsUrl(id), { key, headers: { 'Last-Event-ID': '1' } });
  expect(summary(events)).toEqual([
    ['log', '2', 'two'],
    ['log', '3', 'three'],
    ['status', 'ready'],
    ['end', 'ready'],
  ]);
});

it('keeps an idle stream open with comments, and ends it itself with event: reconnect', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await append(key, id, ['only line']);
  const started = performance.now();
  // ?follow=1 asks for the stream as Accept does (here without it).
  const stream = await openEventStream(`${logsUrl(id)}?follow=1`, { key, headers: { Accept: '*/*' } });
  const events = await collect(stream.events);
  const took = performance.now() - started;
  const keepalives = events.filter((event) => event.comment === 'keepalive').length;
  expect(keepalives).toBeGreaterThanOrEqual(3);
  expect(events.at(-1)).toEqual({ event: 'reconnect', data: '{"lastEventId":1}' });
  // Not before its lifetime, and not after it either: at most one keepalive per KEEPALIVE_MS fits into
  // it, so a stream that outlived it would have sent more. (A bound on the time the test took would
  // also count what a busy machine added around the stream.)
  expect(took).toBeGreaterThan(LIFETIME_MS - 500);
  expect(keepalives).toBeLessThanOrEqual(Math.floor(LIFETIME_MS / KEEPALIVE_MS));
}, 15_000);

it("answers another user's deployment with the JSON 404, and a stream counts one request", async () => {
  // The counts before and after the stream in one rate-limit window: a new one would start them again.
  pinMidWindow();
  const owner = await newCaller();
  const stranger = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, owner.key)).id;
  const refused = await openEventStream(logsUrl(id), { key: stranger.key });
  expect(refused.status).toBe(404);
  expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const badResume = await call(logsUrl(id), {
    key: owner.key,
    headers: { Accept: 'text/event-stream', 'Last-Event-ID': 'seven' },
  });
  expect(badResume.status).toBe(400);
  expect(badResume.body).toMatchObject({ error: 'validation_error', field: 'Last-Event-ID' });

  await report(owner.key, id, 'canceled');
  const remaining = async () =>
    Number(
      (await call(`${gateway.baseUrl}/deployments/${id}`, { key: owner.key })).headers.get(
        'x-ratelimit-remaining',
      ),
    );
  const before = await remaining();
  const stream = await openEventStream(logsUrl(id), { key: owner.key });
  expect(summary(await collect(stream.events))).toEqual([
    ['status', 'canceled'],
    ['end', 'canceled'],
  ]);
  expect(await remaining()).toBe(before - 2);
});
