import { rateLimitHeaders } from '#shared/http/admission/rate-limit-headers.ts';
import { sourceThrottle } from '#shared/http/admission/source-throttle.ts';
import { errorShaping } from '#shared/http/answers/error-response.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { bodyOf, proxyEvent, runChain, uniqueSourceIp } from '../../support/proxy-events.ts';
import { overrideSettings } from '../../support/settings.ts';
import { pinMidWindow } from '../../support/window.ts';

// sourceThrottle on DynamoDB Local: /auth/* requests counted per source address, with the
// X-RateLimit-* headers, and a 429 once the address's allowance for the window is spent. This suite
// loads the service with an allowance of 2 (settings are read when the modules load).

let restoreSettings: () => void;

beforeAll(async () => {
  restoreSettings = overrideSettings({ AUTH_RATE_LIMIT_MAX: '2' });
});
afterAll(() => restoreSettings());

let now: number;
beforeEach(() => {
  now = pinMidWindow();
});
restoreClockAfterEach();

const login = (sourceIp: string) =>
  runChain(
    [rateLimitHeaders(), errorShaping(), sourceThrottle()],
    proxyEvent({ method: 'POST', resource: '/auth/login', sourceIp }),
  ).then(({ result }) => result);

describe('the per-address throttle of /auth/*', () => {
  it('counts each request from an address and reports what is left', async () => {
    const address = uniqueSourceIp();
    const first = await login(address);
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': String(now + 30),
    });
    expect((await login(address)).headers?.['X-RateLimit-Remaining']).toBe('0');
  });

  it('answers 429 with Retry-After once the address has spent its allowance', async () => {
    const address = uniqueSourceIp();
    await login(address);
    await login(address);
    const refused = await login(address);
    expect(refused.statusCode).toBe(429);
    expect(bodyOf(refused)).toEqual({ error: 'rate_limit_exceeded', retryAfter: 30 });
    expect(refused.headers).toMatchObject({
      'Retry-After': '30',
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(now + 30),
    });
  });

  it('keeps addresses apart', async () => {
    const busy = uniqueSourceIp();
    await login(busy);
    await login(busy);
    expect((await login(busy)).statusCode).toBe(429);
    const other = await login(uniqueSourceIp());
    expect(other.statusCode).toBe(200);
    expect(other.headers?.['X-RateLimit-Remaining']).toBe('1');
  });
});
