import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// `npm start` serves every route from one process and one set of DynamoDB clients, so a burst on
// one key must be held there as it is in Lambda, where each request has a container of its own:
// exactly the allowance answers 200, every other request 429, and nothing fails on the way.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const realNow = restoreClockAfterEach();

/** Pins the clock mid-window, so a burst that takes a few seconds cannot straddle two windows. */
function pinMidWindow(): void {
  const windowStart = Math.floor(realNow() / 60_000) * 60_000;
  clock.now = () => windowStart + 30_000;
}

async function burst(size: number, limit: number): Promise<Record<number, number>> {
  pinMidWindow();
  const { key } = await newCaller({ rateLimit: limit });
  const project = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'burst' } });
  expect(project.status).toBe(201);
  const { id } = project.body as { id: string };
  const answers = await Promise.all(
    Array.from({ length: size }, () => call(`${gateway.baseUrl}/projects/${id}`, { key })),
  );
  const statuses: Record<number, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  return statuses;
}

describe('a burst of concurrent requests on one key through the local gateway', () => {
  it('answers 250 requests with exactly the allowance of 200s and 429s for the rest', async () => {
    // The project was created with one request of the allowance of 101.
    expect(await burst(250, 101)).toEqual({ 200: 100, 429: 150 });
  }, 60_000);

  it('answers 1,000 requests with exactly the allowance of 200s and 429s for the rest', async () => {
    expect(await burst(1_000, 101)).toEqual({ 200: 100, 429: 900 });
  }, 120_000);
});
