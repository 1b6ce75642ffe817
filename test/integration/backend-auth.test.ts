import { createUser } from '#shared/domain/users.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';
import { walkPages } from '../support/pages.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const USER_ID = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;
const PASSWORD = 'correct horse battery';

const register = (json: unknown) => call(`${gateway.backendUrl}/auth/register`, { method: 'POST', json });
const login = (json: unknown) => call(`${gateway.backendUrl}/auth/login`, { method: 'POST', json });

async function registeredUser(label = 'user') {
  const email = uniqueEmail(label);
  const response = await register({ email, password: PASSWORD, name: 'Ada' });
  expect(response.status).toBe(201);
  return { email, user: response.body as { id: string } };
}

async function loginKey(email: string, password = PASSWORD): Promise<string> {
  const response = await login({ email, password });
  expect(response.status).toBe(200);
  return (response.body as { apiKey: string }).apiKey;
}

describe('from registration to a working API key', () => {
  it('registers, logs in and uses the key on the versioned API', async () => {
    const email = uniqueEmail('flow');
    const registered = await register({
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD,
      name: ' Ada ',
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.stringMatching(USER_ID),
      email,
      name: 'Ada',
      role: 'member',
      createdAt: expect.any(String),
    });

    const loggedIn = await login({ email, password: PASSWORD });
    expect(loggedIn.status).toBe(200);
    const body = loggedIn.body as { apiKey: string; expiresAt: string };
    expect(body).toEqual({
      apiKey: expect.stringMatching(/^plat_[0-9A-Za-z]{38}$/),
      tokenType: 'Bearer',
      expiresAt: expect.any(String),
      user: registered.body,
    });
    const thirtyDays = 30 * 24 * 3600 * 1000;
    expect(Math.abs(Date.parse(body.expiresAt) - Date.now() - thirtyDays)).toBeLessThan(60_000);

    const created = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key: body.apiKey,
      json: { name: 'web' },
    });
    expect(created.status).toBe(201);
    const listed = await call(`${gateway.baseUrl}/projects`, { key: body.apiKey });
    expect(listed.body).toEqual({ projects: [created.body], nextCursor: null });
  });

  it('never makes an admin by registration', async () => {
    const response = await register({ email: uniqueEmail(), password: PASSWORD, role: 'admin' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'validation_error',
      message: 'role is not a known field',
      field: 'role',
    });
  });
});

describe('POST /auth/register errors', () => {
  it.each([
    [{ password: PASSWORD }, 'email', 'email is required'],
    [{ email: 'not-an-email', password: PASSWORD }, 'email', 'email must be an email address'],
    [{ email: 'a@example', password: PASSWORD }, 'email', 'email must be an email address'],
    // Long input stops at the length check, before the address pattern is tried on it.
    [
      { email: `a@${'.'.repeat(60_000)} `, password: PASSWORD },
      'email',
      'email must be at most 254 characters',
    ],
    [{ email: 'a@b.test' }, 'password', 'password is required'],
    [{ email: 'a@b.test', password: 'short' }, 'password', 'password must be at least 8 characters'],
    [{ email: 'a@b.test', password: 'x'.repeat(257) }, 'password', 'password must be at most 256 characters'],
    [{ email: 'a@b.test', password: 12345678 }, 'password', 'password must be a string'],
    [{ email: 'a@b.test', password: PASSWORD, name: '' }, 'name', 'name must not be empty'],
    [
      { email: 'a@b.test', password: PASSWORD, name: 'x'.repeat(101) },
      'name',
      'name must be at most 100 characters',
    ],
  ])('rejects %j with 400 naming %s', async (json, field, message) => {
    const response = await register(json);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'validation_error', message, field });
  });

  it('accepts a password of exactly 8 and of exactly 256 characters, spaces and all', async () => {
    expect((await register({ email: uniqueEmail(), password: 'a b c de' })).status).toBe(201);
    expect((await register({ email: uniqueEmail(), password: 'p'.repeat(256) })).status).toBe(201);
  });

  it('answers a taken email with 409 conflict, whatever its case', async () => {
    const { email } = await registeredUser();
    const response = await register({ email: email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'conflict', message: 'A user with this email already exists' });
  });

  it('answers a body that is not JSON with 400 and one without the JSON type with 415', async () => {
    const notJson = await call(`${gateway.backendUrl}/auth/register`, {
      method: 'POST',
      rawBody: 'email=a',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(notJson.body).toEqual({
      error: 'validation_error',
      message: 'Request body is not valid JSON',
      field: 'body',
    });
    const form = await call(`${gateway.backendUrl}/auth/register`, {
      method: 'POST',
      rawBody: 'email=a',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('creates exactly one user of 50 simultaneous registrations of one email', async () => {
    const marker = await registeredUser('before-race');
    const email = uniqueEmail('race');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => register({ email, password: `${PASSWORD} ${i}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);

    // Exactly one user item exists: the admin listing shows the address once. Every registration of
    // the race got an id after the marker's (ids sort by creation), so the list is read down to it.
    const admin = await createAdmin();
    const listed = await usersDownTo(admin, marker.user.id);
    expect(listed.filter((user) => user.email === email)).toHaveLength(1);
  }, 60_000);
});

describe('POST /auth/login errors', () => {
  it('gives a wrong password and an unknown email the identical 401', async () => {
    const { email } = await registeredUser();
    const wrongPassword = await login({ email, password: 'not the password' });
    const unknownEmail = await login({ email: uniqueEmail('nobody'), password: PASSWORD });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ error: 'unauthorized', message: 'Invalid email or password' });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('names the missing field', async () => {
    expect((await login({ email: uniqueEmail() })).body).toEqual({
      error: 'validation_error',
      message: 'password is required',
      field: 'password',
    });
  });

  it('issues a new key on every login, each one working', async () => {
    const { email } = await registeredUser();
    const first = await loginKey(email);
    const second = await loginKey(email);
    expect(first).not.toBe(second);
    for (const key of [first, second])
      expect((await call(`${gateway.baseUrl}/projects`, { key })).status).toBe(200);
  });
});

async function createAdmin(): Promise<string> {
  const email = uniqueEmail('admin');
  await createUser({ email, password: PASSWORD, role: 'admin' });
  return loginKey(email);
}

type ListedUser = Record<string, unknown> & { id: string; email: string };

/**
 * The user list, newest first, from its first page down to the user `oldestId`. Other test files
 * register users at the same time on the same store: those made after this test's users come before
 * them, so a test reads until its own oldest user and looks only at its own.
 */
async function usersDownTo(key: string, oldestId: string, limit = 100): Promise<ListedUser[]> {
  const { items } = await walkPages<ListedUser>(
    `${gateway.backendUrl}/api/v1/users`,
    key,
    'users',
    limit,
    (listed) => listed.some((user) => user.id === oldestId),
  );
  expect(items.map((user) => user.id)).toContain(oldestId);
  return items;
}

describe('GET /api/v1/users', () => {
  it('lists users newest first, with exactly the public fields, for an admin', async () => {
    const admin = await createAdmin();
    const first = await registeredUser('first');
    const second = await registeredUser('second');
    const response = await call(`${gateway.backendUrl}/api/v1/users?limit=2`, { key: admin });
    expect(response.status).toBe(200);
    const page = response.body as { users: ListedUser[]; nextCursor: string | null };
    expect(page.users).toHaveLength(2);
    expect(typeof page.nextCursor).toBe('string');
    expect(rateLimitOf(response)).toMatchObject({ limit: 100 });

    // Users other files registered meanwhile are listed too, before these two when newer: only this
    // test's own are compared, in the order served, page by page as a client reads them.
    const listed = await usersDownTo(admin, first.user.id, 2);
    for (const user of listed)
      expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role']);
    const own = listed.filter((user) => user.id === first.user.id || user.id === second.user.id);
    expect(own).toEqual([
      { ...second.user, email: second.email },
      { ...first.user, email: first.email },
    ]);
  });

  it('answers a member with 403 forbidden and the rate-limit headers', async () => {
    const { email } = await registeredUser();
    const response = await call(`${gateway.backendUrl}/api/v1/users`, { key: await loginKey(email) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'forbidden', message: 'Only admins may list users' });
    expect(rateLimitOf(response)).toMatchObject({ limit: 100, remaining: 99 });
  });

  it('answers a request without a key with 401', async () => {
    const response = await call(`${gateway.backendUrl}/api/v1/users`);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'unauthorized' });
  });
});
