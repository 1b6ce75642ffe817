import { apiKeyAuth } from '#shared/http/admission/api-key-auth.ts';
import { rateLimitHeaders } from '#shared/http/admission/rate-limit-headers.ts';
import { errorShaping } from '#shared/http/answers/error-response.ts';
import { generateApiKey } from '#shared/model/api-key-format.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import {
  bodyOf,
  proxyEvent,
  runChain,
  type TestHandler,
  uniqueSourceIp,
} from '../../support/proxy-events.ts';
import { newCaller } from '../../support/users.ts';
import { pinMidWindow } from '../../support/window.ts';

// apiKeyAuth on DynamoDB Local: the key authenticates and counts the request in one write, the
// caller reaches the handler, scopes are checked after counting, and every refusal carries the
// allowance it was counted against. Run through the two middlewares that surround it in every
// chain, so each test sees what a client would.

let now: number;
beforeEach(() => {
  now = pinMidWindow();
});
restoreClockAfterEach();
const windowEnd = () => now + 30;

/** The handler shows who reached it. */
const whoAmI: TestHandler = async (_event, context) => ({
  statusCode: 200,
  headers: {},
  body: JSON.stringify({ userId: context.state.caller?.userId, scopes: context.state.caller?.scopes }),
});

function send(options: { authorization?: string; method?: string; sourceIp?: string } = {}) {
  const event = proxyEvent({
    method: options.method ?? 'GET',
    resource: '/projects',
    headers: options.authorization === undefined ? {} : { Authorization: options.authorization },
    sourceIp: options.sourceIp ?? uniqueSourceIp(),
  });
  return runChain([rateLimitHeaders(), errorShaping(), apiKeyAuth()], event, whoAmI).then(
    ({ result }) => result,
  );
}

describe('API key authentication', () => {
  it('lets a valid key through as its user, counted against the default allowance', async () => {
    const caller = await newCaller();
    const result = await send({ authorization: `Bearer ${caller.key}` });
    expect(result).toEqual({
      statusCode: 200,
      headers: {
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '99',
        'X-RateLimit-Reset': String(windowEnd()),
        'RateLimit-Policy': '"default";q=100;w=60',
        RateLimit: expect.stringMatching(/^"default";r=99;t=\d+$/),
      },
      body: JSON.stringify({ userId: caller.userId, scopes: ['read', 'write'] }),
    });
    const second = await send({ authorization: `bearer   ${caller.key}` });
    expect(second.headers?.['X-RateLimit-Remaining']).toBe('98');
  });

  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a key with a wrong checksum', 'Bearer plat_000000000000000000000000000000000000000'],
    ['a well-formed key nobody issued', `Bearer ${generateApiKey()}`],
    ["the fixture's made-up key", 'Bearer plat_example_not_a_real_key'],
  ])('answers %s with 401 and the per-address allowance', async (_case, authorization) => {
    const result = await send(authorization === undefined ? {} : { authorization });
    expect(result.statusCode).toBe(401);
    expect(bodyOf(result)).toEqual({
      error: 'unauthorized',
      message: 'A valid API key is required: send Authorization: Bearer <API_KEY>',
    });
    // The run sets ANONYMOUS_RATE_LIMIT_MAX high (test/support/global-setup.ts); the address is new.
    expect(result.headers).toMatchObject({ 'X-RateLimit-Limit': '100000', 'X-RateLimit-Remaining': '99999' });
  });

  it('refuses a key past its expiry', async () => {
    const caller = await newCaller({ ttlSeconds: 5 });
    expect((await send({ authorization: `Bearer ${caller.key}` })).statusCode).toBe(200);
    clock.now = () => (now + 6) * 1000;
    expect((await send({ authorization: `Bearer ${caller.key}` })).statusCode).toBe(401);
  });

  it("answers 429 with Retry-After once the key's own allowance is spent, and does not count the refusal", async () => {
    const caller = await newCaller({ rateLimit: 2 });
    const authorization = `Bearer ${caller.key}`;
    expect((await send({ authorization })).headers?.['X-RateLimit-Remaining']).toBe('1');
    expect((await send({ authorization })).headers?.['X-RateLimit-Remaining']).toBe('0');
    for (let refused = 0; refused < 2; refused++) {
      const result = await send({ authorization });
      expect(result).toEqual({
        statusCode: 429,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Retry-After': '30',
          'X-RateLimit-Limit': '2',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(windowEnd()),
          'RateLimit-Policy': '"default";q=2;w=60',
          RateLimit: expect.stringMatching(/^"default";r=0;t=\d+$/),
        },
        body: JSON.stringify({ error: 'rate_limit_exceeded', retryAfter: 30 }),
      });
    }
  });

  it('refuses a write with a read-only key with 403 naming the scope, after counting it', async () => {
    const caller = await newCaller({ scopes: ['read'] });
    const authorization = `Bearer ${caller.key}`;
    const refused = await send({ authorization, method: 'POST' });
    expect(refused.statusCode).toBe(403);
    expect(bodyOf(refused)).toEqual({
      error: 'forbidden',
      message: 'This request needs the write scope, which this API key does not have',
    });
    expect(refused.headers?.['X-RateLimit-Remaining']).toBe('99');
    const read = await send({ authorization, method: 'GET' });
    expect(read.statusCode).toBe(200);
    expect(read.headers?.['X-RateLimit-Remaining']).toBe('98');
  });

  it('checks the scope the route names rather than the method when it names one', async () => {
    const caller = await newCaller({ scopes: ['read'] });
    const event = proxyEvent({
      method: 'POST',
      resource: '/auth/logout',
      headers: { Authorization: `Bearer ${caller.key}` },
    });
    const { result } = await runChain([errorShaping(), apiKeyAuth('read')], event, whoAmI);
    expect(result.statusCode).toBe(200);
  });
});
