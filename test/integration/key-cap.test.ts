import { MAX_KEYS_PER_USER } from '#shared/domain/key-cap.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// Keys made with POST /keys carry the allowance of the key that made them; without a ceiling a
// user multiplies their allowance by minting keys (issue 22, item 4). A user holds at most 20.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const makeKey = (key: string, name: string): Promise<JsonResponse> =>
  call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json: { name } });

const CAP_MESSAGE = `A user may hold at most ${MAX_KEYS_PER_USER} keys made with POST /keys at once: revoke one (DELETE /keys/{id}) first`;

it('refuses the 21st key with a 409 naming the limit, and makes one again after a revocation', async () => {
  expect(MAX_KEYS_PER_USER).toBe(20);
  const { key } = await newCaller({ rateLimit: 1_000 });
  const made: string[] = [];
  for (let index = 0; index < MAX_KEYS_PER_USER; index++) {
    const response = await makeKey(key, `key ${index}`);
    expect(response.status).toBe(201);
    made.push((response.body as { key: { id: string } }).key.id);
  }
  const refused = await makeKey(key, 'one too many');
  expect({ status: refused.status, body: refused.body }).toEqual({
    status: 409,
    body: { error: 'conflict', message: CAP_MESSAGE },
  });

  const revoked = await call(`${gateway.baseUrl}/keys/${made[0]}`, { method: 'DELETE', key });
  expect(revoked.status).toBe(204);
  expect((await makeKey(key, 'after a revocation')).status).toBe(201);
  expect((await makeKey(key, 'one too many again')).status).toBe(409);
}, 60_000);

it('lets no more than 20 in when 30 are asked for at once', async () => {
  const { key } = await newCaller({ rateLimit: 1_000 });
  const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => makeKey(key, `burst ${index}`)));
  const statuses = answers.map(({ status }) => status);
  expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const created = statuses.filter((status) => status === 201).length;
  expect(created).toBeLessThanOrEqual(MAX_KEYS_PER_USER);
  // Those refused for the race rather than the ceiling may try again, up to exactly the ceiling.
  for (let index = created; index < MAX_KEYS_PER_USER; index++) {
    expect((await makeKey(key, `after the burst ${index}`)).status).toBe(201);
  }
  expect((await makeKey(key, 'past the ceiling')).body).toEqual({ error: 'conflict', message: CAP_MESSAGE });
}, 60_000);

it('does not count keys issued by login, nor the login key that makes them', async () => {
  const { key } = await newCaller({ rateLimit: 1_000 });
  const listed = await call(`${gateway.baseUrl}/keys`, { key });
  expect((listed.body as { keys: unknown[] }).keys).toHaveLength(1);
  expect((await makeKey(key, 'first made key')).status).toBe(201);
});
