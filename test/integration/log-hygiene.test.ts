import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { hashApiKey } from '#shared/model/api-key-format.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { uniqueEmail } from '../support/names.ts';
import { overrideSettings } from '../support/settings.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';

// Logging is on for this suite (the run keeps it silent): LOG_LEVEL is read when the service's
// modules load, so they are loaded after the setting.
let restoreSettings: () => void;
let gateway: TestGateway;
beforeAll(async () => {
  restoreSettings = overrideSettings({ LOG_LEVEL: 'info' });
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

async function storedPasswordHash(email: string): Promise<string> {
  const users = tableName('users');
  const credentials = await db.send(new GetCommand({ TableName: users, Key: { pk: `EMAIL#${email}` } }));
  return String(credentials.Item?.passwordHash);
}

describe('logs', () => {
  it('never contain a password, an API key (logged in, created or revoked), its digest or a password hash', async () => {
    const email = uniqueEmail('logs');
    const password = 'log-scan secret passphrase';
    const { result: keys, lines } = await captureLogs(async () => {
      const post = (path: string, json: unknown, key?: string) =>
        call(`${gateway.backendUrl}${path}`, { method: 'POST', json, ...(key ? { key } : {}) });
      await post('/auth/register', { email, password });
      await post('/auth/register', { email, password }); // 409
      await post('/auth/login', { email, password: `${password} wrong` }); // 401
      const login = await post('/auth/login', { email, password });
      const key = (login.body as { apiKey: string }).apiKey;
      await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
      await call(`${gateway.baseUrl}/projects`, { key });
      await call(`${gateway.backendUrl}/api/v1/users`, { key }); // 403
      await call(`${gateway.baseUrl}/projects`, { key: `${key.slice(0, -1)}x` }); // 401
      const created = await call(`${gateway.baseUrl}/keys`, {
        method: 'POST',
        key,
        json: { name: 'ci' },
        headers: { 'Idempotency-Key': 'log-scan' },
      });
      const madeKey = (created.body as { apiKey: string }).apiKey;
      await call(`${gateway.baseUrl}/keys`, { key: madeKey });
      await call(`${gateway.backendUrl}/auth/logout`, { method: 'POST', key: madeKey });
      return [key, madeKey];
    });

    expect(lines.length).toBeGreaterThanOrEqual(8); // one access line per request: logging was on
    const passwordHash = await storedPasswordHash(email);
    expect(passwordHash).toMatch(/^\$argon2id\$/);
    const secrets = [
      password,
      passwordHash,
      ...keys.flatMap((apiKey) => [apiKey, apiKey.slice(5), hashApiKey(apiKey)]),
    ];
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
  });
});

describe('a request that changes nothing', () => {
  it('gives a member the role they have: 200, the member as they were, and nothing in the log (no event due, none missing)', async () => {
    const owner = await newPerson('Owner');
    const developer = await newPerson('Dev');
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');
    const { result: same, lines } = await captureLogs(() =>
      call(`${gateway.baseUrl}/teams/${teamId}/members/${developer.userId}`, {
        method: 'PATCH',
        key: owner.key,
        json: { role: 'developer' },
      }),
    );
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ userId: developer.userId, role: 'developer' });
    // The access line only (logging is on in this file): a change answered without its event is
    // logged as an error.
    expect(lines.map((line) => (JSON.parse(line) as { level: string }).level)).toEqual(['info']);
  });
});
