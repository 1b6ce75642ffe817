import { clock } from '#shared/runtime/clock.ts';
import { recordCommands } from '../support/dynamodb-commands.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';
import { overrideSettings } from '../support/settings.ts';

// This suite lowers the /auth/* limits, so it loads the service only after setting them
// (configuration is read once, when the modules load), and runs in a window of its own.
let gateway: TestGateway;
let restoreSettings: () => void;
const commands = recordCommands();

beforeAll(async () => {
  restoreSettings = overrideSettings({ AUTH_RATE_LIMIT_MAX: '6', LOGIN_EMAIL_RATE_LIMIT_MAX: '2' });
  gateway = await startGateway();
});

afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

/** A window two years ahead, which no other suite's clock reaches: the per-address bucket starts empty. */
function ownWindow(yearsAhead: number): number {
  const start = Math.floor(Date.now() / 1000 / 60) * 60 + yearsAhead * 366 * 24 * 3600;
  clock.now = () => (start + 20) * 1000;
  return start;
}

const login = (json: unknown) => call(`${gateway.backendUrl}/auth/login`, { method: 'POST', json });

describe('brute-force limits on /auth/*', () => {
  it('limits login attempts per email before any password is checked', async () => {
    const start = ownWindow(2);
    const email = uniqueEmail('target');
    const first = await login({ email, password: 'guess one' });
    const second = await login({ email, password: 'guess two' });
    expect([first.status, second.status]).toEqual([401, 401]);

    commands.take();
    const third = await login({ email, password: 'guess three' });
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: 'rate_limit_exceeded', retryAfter: 40 });
    expect(third.headers.get('retry-after')).toBe('40');
    // Two counters and nothing else: the user was not even looked up, so no hash ran.
    expect(commands.take()).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    // The headers report the allowance that ran out: this email's, not the address's.
    expect(rateLimitOf(third)).toEqual({ limit: 2, remaining: 0, reset: start + 60 });

    // Another email from the same address still gets its own attempts.
    expect((await login({ email: uniqueEmail('other'), password: 'guess' })).status).toBe(401);
  });

  it('limits every /auth/* request per source address, with the headers on each answer', async () => {
    const start = ownWindow(3);
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await call(`${gateway.backendUrl}/auth/register`, {
        method: 'POST',
        json: { email: 'bad' },
      });
      statuses.push(response.status);
      remaining.push(rateLimitOf(response).remaining);
      expect(rateLimitOf(response)).toMatchObject({ limit: 6, reset: start + 60 });
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429, 429]);
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0, 0, 0]);
  });
});
