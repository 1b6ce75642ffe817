import { rateLimitHeaders } from '#shared/http/admission/rate-limit-headers.ts';
import { errorShaping } from '#shared/http/answers/error-response.ts';
import { NotFoundError, RateLimitedError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { proxyEvent, runChain, type TestHandler } from '../../support/proxy-events.ts';

// rateLimitHeaders: the allowance the request was counted against, on every answer, errors included.

const counted: TestHandler = async (_event, context) => {
  context.state.rateLimit = { limit: 100, remaining: 41, resetAt: 1_795_339_000 };
  return { statusCode: 200, headers: {}, body: '{}' };
};

restoreClockAfterEach();

describe('rate-limit headers', () => {
  it('puts the three X-RateLimit-* headers and the IETF pair on a success', async () => {
    // 41 s before the window's end, on the service's clock: the seconds left do not depend on when the test runs.
    clock.now = () => (1_795_339_000 - 41) * 1000;
    const { result } = await runChain([rateLimitHeaders()], proxyEvent(), counted);
    expect(result.headers).toEqual({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '41',
      'X-RateLimit-Reset': '1795339000',
      'RateLimit-Policy': '"default";q=100;w=60',
      RateLimit: '"default";r=41;t=41',
    });
  });

  it('puts them on an error answer too', async () => {
    const { result } = await runChain(
      [rateLimitHeaders(), errorShaping()],
      proxyEvent(),
      async (_e, context) => {
        context.state.rateLimit = { limit: 100, remaining: 3, resetAt: 1_795_339_020 };
        throw new NotFoundError('Project not found');
      },
    );
    expect(result.statusCode).toBe(404);
    expect(result.headers).toMatchObject({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': '1795339020',
    });
  });

  it('reports the allowance that ran out on a 429, not the one counted first', async () => {
    const { result } = await runChain(
      [rateLimitHeaders(), errorShaping()],
      proxyEvent(),
      async (_e, context) => {
        context.state.rateLimit = { limit: 20, remaining: 19, resetAt: 1_795_339_020 };
        throw new RateLimitedError(30, { limit: 10, remaining: 0, resetAt: 1_795_339_050 });
      },
    );
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1795339050',
      'Retry-After': '30',
    });
  });

  it('never reports a negative remainder', async () => {
    const { result } = await runChain([rateLimitHeaders()], proxyEvent(), async (_e, context) => {
      context.state.rateLimit = { limit: 5, remaining: -2, resetAt: 1_795_339_020 };
      return { statusCode: 200, headers: {}, body: '{}' };
    });
    expect(result.headers?.['X-RateLimit-Remaining']).toBe('0');
  });

  it('adds nothing to an answer of a request that was not counted (health, the docs)', async () => {
    const { result } = await runChain([rateLimitHeaders()], proxyEvent(), async () => ({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '{}',
    }));
    expect(result.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' });
  });
});
