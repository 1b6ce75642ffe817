import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import { newCaller } from '../support/users.ts';
import { pinMidWindow } from '../support/window.ts';

// Keys a user controls: made for one purpose (a CI job, a laptop), listed without their secret,
// revoked the moment they leak.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

restoreClockAfterEach();

interface ListedKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt?: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

const createKey = (key: string, json: unknown) =>
  call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json });
const listKeys = (key: string, query = '') => call(`${gateway.baseUrl}/keys${query}`, { key });
const projects = (key: string) => call(`${gateway.baseUrl}/projects`, { key });

describe('POST /v1/keys', () => {
  it('creates a named key, shows its plaintext once, and the key works at once', async () => {
    const { key } = await newCaller();
    const created = await createKey(key, { name: 'ci deploys' });
    expect(created.status).toBe(201);
    const { apiKey, key: shown } = created.body as { apiKey: string; key: ListedKey };
    expect(created.headers.get('location')).toBe(`/v1/keys/${shown.id}`);
    expect(shown).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'ci deploys',
      prefix: apiKey.slice(0, 9),
      last4: apiKey.slice(-4),
      scopes: ['read', 'write'],
      createdAt: expect.stringMatching(ISO),
      expiresAt: expect.stringMatching(ISO),
      lastUsedAt: null,
    });
    expect((await projects(apiKey)).status).toBe(200);
  });

  it('makes a read-only key that may read but not write (403 naming the scope)', async () => {
    // One rate-limit window for the key's two requests: a new one between them would start the count again.
    pinMidWindow();
    const { key } = await newCaller();
    const { apiKey } = (await createKey(key, { name: 'dashboard', scopes: ['read'] })).body as {
      apiKey: string;
    };
    expect((await projects(apiKey)).status).toBe(200);
    const refused = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key: apiKey,
      json: { name: 'x' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: expect.stringContaining('write scope') });
    // Counted like any other request.
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('98');
  });

  it('keeps each scope once, however often it is named', async () => {
    const { key } = await newCaller();
    const created = await createKey(key, { name: 'reader', scopes: ['read', 'read'] });
    expect(created.status).toBe(201);
    expect((created.body as { key: ListedKey }).key.scopes).toEqual(['read']);
  });

  it('never lets a key outlive the key that creates it', async () => {
    const { key } = await newCaller({ ttlSeconds: 2 * 24 * 60 * 60 });
    const tooLong = await createKey(key, { name: 'forever', expiresInDays: 3 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error: 'validation_error', field: 'expiresInDays' });

    const byDefault = (await createKey(key, { name: 'default' })).body as { key: ListedKey };
    const caller = (await createKey(key, { name: 'one day', expiresInDays: 1 })).body as { key: ListedKey };
    const parentExpiry = Date.now() + 2 * 24 * 60 * 60 * 1000;
    expect(Date.parse(byDefault.key.expiresAt)).toBeLessThanOrEqual(parentExpiry + 1_000);
    expect(Date.parse(caller.key.expiresAt)).toBeLessThan(Date.parse(byDefault.key.expiresAt));
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', scopes: ['admin'] }, 'scopes.0'],
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x', expiresInDays: 0 }, 'expiresInDays'],
    [{ name: 'x', expiresInDays: 366 }, 'expiresInDays'],
    [{ name: 'x', expiresInDays: 1.5 }, 'expiresInDays'],
  ])('refuses %p with 400 naming %s', async (json, field) => {
    const { key } = await newCaller();
    const response = await createKey(key, json);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
  });
});

describe('GET /v1/keys', () => {
  it("lists the caller's keys newest first, with last use, never a secret", async () => {
    const { key } = await newCaller();
    const first = (await createKey(key, { name: 'first' })).body as { apiKey: string; key: ListedKey };
    const second = (await createKey(key, { name: 'second' })).body as { apiKey: string; key: ListedKey };
    await projects(first.apiKey);

    const listed = await listKeys(key);
    expect(listed.status).toBe(200);
    const { keys } = listed.body as { keys: ListedKey[] };
    expect(keys.map(({ name }) => name)).toEqual(['second', 'first', 'test']);
    expect(keys[1]?.lastUsedAt).toMatch(ISO);
    expect(keys[0]?.lastUsedAt).toBeNull();
    const text = JSON.stringify(listed.body);
    for (const plaintext of [key, first.apiKey, second.apiKey]) expect(text).not.toContain(plaintext);
    expect(text).not.toMatch(/[0-9a-f]{64}/); // no digest
  });

  it('pages through keys with a cursor', async () => {
    const { key } = await newCaller();
    for (const name of ['a', 'b', 'c']) await createKey(key, { name });
    const { items, pages } = await walkPages<ListedKey>(`${gateway.baseUrl}/keys`, key, 'keys', 2);
    expect(items.map(({ name }) => name)).toEqual(['c', 'b', 'a', 'test']);
    expect(pages).toBe(2);
  });
});

describe('revoking keys', () => {
  it('DELETE /v1/keys/{id} revokes a key: 204, its next request is 401, and the list says when', async () => {
    const { key } = await newCaller();
    const leaked = (await createKey(key, { name: 'leaked' })).body as { apiKey: string; key: ListedKey };
    expect((await projects(leaked.apiKey)).status).toBe(200);

    const revoked = await call(`${gateway.baseUrl}/keys/${leaked.key.id}`, { method: 'DELETE', key });
    expect(revoked.status).toBe(204);
    expect((await projects(leaked.apiKey)).status).toBe(401);
    const { keys } = (await listKeys(key)).body as { keys: ListedKey[] };
    expect(keys.find(({ id }) => id === leaked.key.id)?.revokedAt).toMatch(ISO);
    expect((await projects(key)).status).toBe(200);
  });

  it("answers 404 for another user's key, and leaves it working", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const theirs = (await createKey(owner.key, { name: 'theirs' })).body as {
      apiKey: string;
      key: ListedKey;
    };
    const response = await call(`${gateway.baseUrl}/keys/${theirs.key.id}`, {
      method: 'DELETE',
      key: stranger.key,
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', message: 'Key not found' });
    expect((await projects(theirs.apiKey)).status).toBe(200);
  });

  it('POST /auth/logout revokes the presenting key: 204, then 401', async () => {
    const { key } = await newCaller();
    const logout = await call(`${gateway.backendUrl}/auth/logout`, { method: 'POST', key });
    expect(logout.status).toBe(204);
    expect((await projects(key)).status).toBe(401);
  });

  it('refuses logout without a valid key with 401', async () => {
    const response = await call(`${gateway.backendUrl}/auth/logout`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});
