import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse, rateLimitOf } from '../support/http.ts';
import { newCaller } from '../support/users.ts';
import { pinMidWindow } from '../support/window.ts';

// The IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers-11) beside the X-RateLimit-* trio,
// on every /v1 answer, the 429 included (issue 22, item 5), reporting the same allowance.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

restoreClockAfterEach();

const POLICY = /^"default";q=(\d+);w=(\d+)$/;
const LIMIT = /^"default";r=(\d+);t=(\d+)$/;

function ietfFields(response: JsonResponse) {
  const policy = POLICY.exec(response.headers.get('ratelimit-policy') ?? '');
  const limit = LIMIT.exec(response.headers.get('ratelimit') ?? '');
  return {
    quota: Number(policy?.[1]),
    window: Number(policy?.[2]),
    remaining: Number(limit?.[1]),
    secondsLeft: Number(limit?.[2]),
  };
}

it('reports the allowance in both syntaxes on a 200 and on the 429', async () => {
  // The service's clock held in one window: the three requests share it, and the seconds left are exact.
  const nowSeconds = pinMidWindow();
  const { key } = await newCaller({ rateLimit: 2 });
  const ok = await call(`${gateway.baseUrl}/projects`, { key });
  expect(ok.status).toBe(200);
  const first = ietfFields(ok);
  const trio = rateLimitOf(ok);
  expect(first).toEqual({
    quota: 2,
    window: 60,
    remaining: 1,
    secondsLeft: trio.reset - nowSeconds,
  });
  expect(trio).toMatchObject({ limit: 2, remaining: 1 });
  expect(first.secondsLeft).toBeLessThanOrEqual(60);

  await call(`${gateway.baseUrl}/projects`, { key });
  const limited = await call(`${gateway.baseUrl}/projects`, { key });
  expect(limited.status).toBe(429);
  const last = ietfFields(limited);
  expect(last).toMatchObject({ quota: 2, window: 60, remaining: 0 });
  const retryAfter = Number(limited.headers.get('retry-after'));
  // Retry-After does not point before the end of the window the fields describe.
  expect(retryAfter).toBeGreaterThanOrEqual(last.secondsLeft);
  expect(retryAfter - last.secondsLeft).toBeLessThanOrEqual(1);
});

it('puts them on a 401 and an unknown path too', async () => {
  const unauthorized = await call(`${gateway.baseUrl}/projects`);
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.headers.get('ratelimit-policy')).toMatch(POLICY);
  expect(unauthorized.headers.get('ratelimit')).toMatch(LIMIT);
  const { key } = await newCaller();
  const unknown = await call(`${gateway.baseUrl}/nowhere`, { key });
  expect(unknown.status).toBe(404);
  expect(unknown.headers.get('ratelimit')).toMatch(LIMIT);
});
