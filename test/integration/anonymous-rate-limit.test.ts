import { clock } from '#shared/runtime/clock.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { overrideSettings } from '../support/settings.ts';

// This suite lowers the per-address allowance for requests without a valid key, so it loads the
// service only after setting it (configuration is read once, when the modules load).
let gateway: TestGateway;
let restoreSettings: () => void;
beforeAll(async () => {
  restoreSettings = overrideSettings({ ANONYMOUS_RATE_LIMIT_MAX: '3' });
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

describe('requests without a valid key', () => {
  it('are counted per source address in a stricter bucket, then refused with 429', async () => {
    // A window a year ahead, which no other suite's clock reaches, so this bucket starts empty.
    const start = Math.floor(Date.now() / 1000 / 60) * 60 + 366 * 24 * 3600;
    clock.now = () => (start + 10) * 1000;

    const responses = [];
    for (let i = 0; i < 5; i++)
      responses.push(await call(`${gateway.baseUrl}/projects`, { key: 'plat_guess' }));
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 429, 429]);
    expect(responses.map((response) => rateLimitOf(response).remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(responses.map((response) => rateLimitOf(response).limit)).toEqual([3, 3, 3, 3, 3]);
    expect(responses.map((response) => rateLimitOf(response).reset)).toEqual(Array(5).fill(start + 60));
    expect(responses[3]?.body).toEqual({ error: 'rate_limit_exceeded', retryAfter: 50 });
  });

  it('admit exactly the allowance of simultaneous requests from one address', async () => {
    const start = Math.floor(Date.now() / 1000 / 60) * 60 + 2 * 366 * 24 * 3600;
    clock.now = () => (start + 10) * 1000;
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => call(`${gateway.baseUrl}/projects`)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(27);
  });
});
