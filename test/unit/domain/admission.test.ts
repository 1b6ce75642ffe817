import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { revokeApiKeyByHash } from '#shared/db/keys/api-keys.ts';
import { tableName } from '#shared/db/tables.ts';
import * as admission from '#shared/domain/admission.ts';
import { hashApiKey } from '#shared/model/api-key-format.ts';
import { RateLimitedError, UnauthorizedError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { uniqueSourceIp } from '../../support/proxy-events.ts';
import { overrideSettings } from '../../support/settings.ts';
import { newCaller } from '../../support/users.ts';
import { pinMidWindow } from '../../support/window.ts';

// admit() on DynamoDB Local: a valid key is authenticated and counted in one write (which also
// records when it was used); a request without one is counted per source address, in a bucket of
// its own. This suite loads the service with 2 anonymous requests per address and window.

let restoreSettings: () => void;

beforeAll(async () => {
  restoreSettings = overrideSettings({ ANONYMOUS_RATE_LIMIT_MAX: '2' });
});
afterAll(() => restoreSettings());

let now: number;
beforeEach(() => {
  now = pinMidWindow();
});
restoreClockAfterEach();

const storedKey = async (key: string) =>
  (await db.send(new GetCommand({ TableName: tableName('apiKeys'), Key: { keyHash: hashApiKey(key) } })))
    .Item;

describe('admission', () => {
  it('admits a valid key as its user, counts it and records when it was used', async () => {
    const caller = await newCaller({ scopes: ['read'] });
    const admitted = await admission.admit(`Bearer ${caller.key}`, uniqueSourceIp());
    expect(admitted).toEqual({
      admitted: true,
      caller: expect.objectContaining({ userId: caller.userId, role: 'member', scopes: ['read'] }),
      rateLimit: { limit: 100, remaining: 99, resetAt: now + 30 },
    });
    expect(await storedKey(caller.key)).toMatchObject({
      windowCount: 1,
      lastUsedAt: new Date(now * 1000).toISOString(),
    });
  });

  it("refuses a key over its own allowance with a 429's error, and does not count the refusal", async () => {
    const caller = await newCaller({ rateLimit: 1 });
    await admission.admit(`Bearer ${caller.key}`, uniqueSourceIp());
    const refused = await admission.admit(`Bearer ${caller.key}`, uniqueSourceIp());
    expect(refused).toEqual({
      admitted: false,
      error: expect.any(RateLimitedError),
      rateLimit: { limit: 1, remaining: 0, resetAt: now + 30 },
    });
    expect(refused.admitted === false && refused.error).toMatchObject({ retryAfterSeconds: 30 });
    expect(await storedKey(caller.key)).toMatchObject({ windowCount: 1 });
  });

  it('counts a request without a valid key against its address, then refuses the address', async () => {
    const address = uniqueSourceIp();
    const first = await admission.admit(undefined, address);
    expect(first).toEqual({
      admitted: false,
      error: expect.any(UnauthorizedError),
      rateLimit: { limit: 2, remaining: 1, resetAt: now + 30 },
    });
    await admission.admit('Bearer plat_example_not_a_real_key', address);
    const third = await admission.admit('Basic abc', address);
    expect(third).toEqual({
      admitted: false,
      error: expect.any(RateLimitedError),
      rateLimit: { limit: 2, remaining: 0, resetAt: now + 30 },
    });
    // Another address has its own bucket.
    expect((await admission.admit(undefined, uniqueSourceIp())).rateLimit.remaining).toBe(1);
  });

  it('treats an expired or revoked key as no key: counted against the address, 401', async () => {
    const expiring = await newCaller({ ttlSeconds: 5 });
    const revoked = await newCaller();
    await revokeApiKeyByHash(hashApiKey(revoked.key), new Date(now * 1000).toISOString());
    clock.now = () => (now + 6) * 1000;
    for (const key of [expiring.key, revoked.key]) {
      const refused = await admission.admit(`Bearer ${key}`, uniqueSourceIp());
      expect(refused).toMatchObject({ admitted: false, rateLimit: { limit: 2, remaining: 1 } });
      expect(refused.admitted === false && refused.error).toBeInstanceOf(UnauthorizedError);
    }
  });

  it('reports the default allowance, none of it left, before the store has answered', () => {
    expect(admission.allowanceBeforeCounting()).toEqual({ limit: 100, remaining: 0, resetAt: now + 30 });
  });
});
