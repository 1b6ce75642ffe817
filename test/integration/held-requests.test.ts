import type { EventStream } from '../support/event-stream.ts';
import { openEventStream } from '../support/event-stream.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import * as made from '../support/resources.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// Held-open requests (a followed log, a wait) are limited by how many are open at once (issue 38,
// item 2): 10 per key and 25 per owner, counted exactly under concurrency; one more is 429 with
// retryAfter and Retry-After, and a stream that ends or whose client goes away gives its place back.

const restoreSettings = overrideSettings({ LOG_STREAM_POLL_MS: '200', LOG_STREAM_KEEPALIVE_MS: '1000' });
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

const follow = (key: string, id: string) =>
  openEventStream(`${gateway.baseUrl}/deployments/${id}/logs`, { key });
const wait = (key: string, id: string, seconds: number) =>
  call(`${gateway.baseUrl}/deployments/${id}/wait?timeout=${seconds}`, { key });

/** The 429 of a full place count: the contract's body, and Retry-After saying the same. */
function expectFull(status: number, headers: Headers, body: unknown) {
  expect(status).toBe(429);
  const retryAfter = Number(headers.get('retry-after'));
  expect(body).toEqual({ error: 'rate_limit_exceeded', retryAfter });
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

it('answers the 11th open follow of one key 429 (a wait too), and a closed stream frees its place', async () => {
  const { key } = await newCaller();
  const { id } = await made.newDeployment(gateway.baseUrl, key);
  const open: EventStream[] = [];
  try {
    for (let n = 0; n < 10; n++) {
      const stream = await follow(key, id);
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const eleventh = await fetch(`${gateway.baseUrl}/deployments/${id}/logs?follow=1`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expectFull(eleventh.status, eleventh.headers, await eleventh.json());
    const waited = await wait(key, id, 1);
    expectFull(waited.status, waited.headers, waited.body);
    // Another key of the same user has places of its own (up to the owner's 25).
    const other = await made.keyWith(gateway.baseUrl, key, ['read']);
    const theirs = await follow(other, id);
    expect(theirs.status).toBe(200);
    theirs.close();

    open.shift()?.close();
    let again: EventStream | undefined;
    for (let round = 0; round < 50 && again?.status !== 200; round++) {
      again?.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await follow(key, id);
    }
    expect(again?.status).toBe(200);
    if (again) open.push(again);
  } finally {
    for (const stream of open) stream.close();
  }
});

/**
 * Opens waits at once (each key its count), holds them all open until `refusals` have been refused
 * (they answer at once; the others wait), then cancels the deployment, which answers the rest.
 */
async function waitsAtOnce(owner: string, keys: string[], refusals: number) {
  const { id } = await made.newDeployment(gateway.baseUrl, owner);
  let settled = 0;
  const answers = Promise.all(
    keys.map((key) =>
      wait(key, id, 20).then((answer) => {
        settled++;
        return answer;
      }),
    ),
  );
  for (let round = 0; round < 200 && settled < refusals; round++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const canceled = await call(`${gateway.baseUrl}/deployments/${id}/cancel`, { method: 'POST', key: owner });
  expect(canceled.status).toBe(200);
  const all = await answers;
  for (const refused of all.filter((answer) => answer.status === 429))
    expectFull(refused.status, refused.headers, refused.body);
  return {
    refused: all.filter((answer) => answer.status === 429).length,
    waited: all.filter((answer) => answer.status === 200 && answer.headers.get('wait-result') === 'reached')
      .length,
  };
}

it('gives a key exactly 10 places and an owner exactly 25 when many open at once', async () => {
  const { key } = await newCaller();
  // One key, 15 at once: 10 wait, 5 are refused.
  expect(await waitsAtOnce(key, Array(15).fill(key), 5)).toEqual({ waited: 10, refused: 5 });
  // Three keys of one owner, 10 each at once: each key is within its own 10, the owner's 25 are not.
  const others = await Promise.all([1, 2].map(() => made.keyWith(gateway.baseUrl, key, ['read'])));
  const thirty = [key, ...others].flatMap((each) => Array(10).fill(each));
  expect(await waitsAtOnce(key, thirty, 5)).toEqual({ waited: 25, refused: 5 });
  // Every place was given back when its wait answered.
  const { id } = await made.newDeployment(gateway.baseUrl, key);
  expect((await wait(key, id, 1)).status).toBe(200);
});
