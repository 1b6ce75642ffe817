import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { generateApiKey, hashApiKey } from '#shared/model/api-key-format.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// What a compromised keyed function could do with the UpdateItem that every keyed function holds on
// the API-key table (it counts requests there): rewrite the fields that say whose a key is and what
// it may do, or make up a key item of its own. Each such item must admit nothing, while keys
// issued by login or key creation keep working.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const listUsers = (key: string) =>
  call(`${gateway.backendUrl}/api/v1/users`, { headers: { Authorization: `Bearer ${key}` } });
const listProjects = (key: string) =>
  call(`${gateway.baseUrl}/projects`, { headers: { Authorization: `Bearer ${key}` } });

/** What an attacker holding only UpdateItem would send: SET some fields of the key's item. */
async function rewrite(key: string, fields: Record<string, unknown>): Promise<void> {
  const names = Object.keys(fields);
  await db.send(
    new UpdateCommand({
      TableName: tableName('apiKeys'),
      Key: { keyHash: hashApiKey(key) },
      UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, fields[name]])),
    }),
  );
}

describe('A key item rewritten outside the key-issuing functions', () => {
  it('keeps working while only its counter moves', async () => {
    const { key } = await newCaller();
    for (let request = 0; request < 3; request++) expect((await listProjects(key)).status).toBe(200);
  });

  it('admits nothing once its role is raised to admin', async () => {
    const { key } = await newCaller({ role: 'member' });
    expect((await listUsers(key)).status).toBe(403);
    await rewrite(key, { role: 'admin' });
    const response = await listUsers(key);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'unauthorized' });
  });

  it.each([
    ['given to another user', () => ({ userId: 'usr_someone_else' })],
    ['given every scope', () => ({ scopes: ['read', 'write'] })],
    ['given a longer life', () => ({ expiresAt: Math.floor(Date.now() / 1000) + 10 * 365 * 24 * 3600 })],
    ['given a higher allowance', () => ({ rateLimit: 1_000_000 })],
    ['stripped of its signature', () => ({ identitySignature: '' })],
  ])('admits nothing once %s', async (_, fields) => {
    const { key } = await newCaller({ scopes: ['read'], rateLimit: 50 });
    expect((await listProjects(key)).status).toBe(200);
    await rewrite(key, fields());
    expect((await listProjects(key)).status).toBe(401);
  });

  it('admits nothing for a key item made up by an UpdateItem that creates it', async () => {
    const { userId, key: genuine } = await newCaller();
    const forged = generateApiKey();
    await rewrite(forged, {
      keyId: 'key_forged',
      userId,
      role: 'admin',
      scopes: ['read', 'write'],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      windowStart: 0,
      windowCount: 0,
      identitySignature: 'AAAA',
    });
    expect((await listProjects(forged)).status).toBe(401);
    expect((await listProjects(genuine)).status).toBe(200);
  });
});
