import { revokeApiKey } from '#shared/domain/api-keys.ts';
import { generateApiKey, isWellFormedApiKey } from '#shared/model/api-key-format.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const realNow = restoreClockAfterEach();

const UNAUTHORIZED = {
  error: 'unauthorized',
  message: 'A valid API key is required: send Authorization: Bearer <API_KEY>',
};

const projects = (headers: Record<string, string> = {}) => call(`${gateway.baseUrl}/projects`, { headers });

describe('API key authentication', () => {
  it('lets a valid key through and reports its allowance', async () => {
    const { key } = await newCaller({ rateLimit: 10 });
    const response = await projects({ Authorization: `Bearer ${key}` });
    expect(response.status).toBe(200);
    expect(rateLimitOf(response)).toMatchObject({ limit: 10, remaining: 9 });
  });

  it('accepts the header name and the scheme in any case', async () => {
    const { key } = await newCaller();
    expect((await projects({ authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await projects({ Authorization: `bearer ${key}` })).status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}],
    ['an empty header', { Authorization: '' }],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without a key', { Authorization: 'Bearer ' }],
    ['a malformed key', { Authorization: 'Bearer not-a-key' }],
    ['a key with a wrong checksum', { Authorization: `Bearer plat_${'A'.repeat(38)}` }],
    ['the fixture example key', { Authorization: 'Bearer plat_example_not_a_real_key' }],
  ])('answers %s with the one 401 body and the rate-limit headers', async (_case, headers) => {
    const sentAt = realNow() / 1000;
    const response = await projects(headers);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
    expect(rateLimitOf(response).limit).toBe(100000);
    // The end of the window the request was counted in: after the moment it was sent.
    expect(rateLimitOf(response).reset).toBeGreaterThan(sentAt);
  });

  it('rejects a key with the right shape and checksum that was never issued', async () => {
    const neverIssued = generateApiKey();
    expect(isWellFormedApiKey(neverIssued)).toBe(true);
    const response = await projects({ Authorization: `Bearer ${neverIssued}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
  });

  it('rejects a revoked key', async () => {
    const { key } = await newCaller();
    expect((await projects({ Authorization: `Bearer ${key}` })).status).toBe(200);
    await revokeApiKey(key);
    const response = await projects({ Authorization: `Bearer ${key}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
  });

  it('rejects a key once it has expired', async () => {
    const { key } = await newCaller({ ttlSeconds: 3600 });
    expect((await projects({ Authorization: `Bearer ${key}` })).status).toBe(200);
    const issuedAt = realNow();
    clock.now = () => issuedAt + 3601 * 1000;
    const response = await projects({ Authorization: `Bearer ${key}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
  });
});
