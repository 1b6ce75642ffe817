import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type ProxiedGateway, startProxiedGateway } from '../support/proxied-gateway.ts';
import type { ResponseDroppingProxy } from '../support/response-dropping-proxy.ts';
import type { TestPerson } from '../support/teams.ts';
import * as teams from '../support/teams.ts';

// Deleting a team revokes its tokens, which it finds through the keys' owner index. In DynamoDB that
// index can lag behind a token made a moment before, and a token that outlived its team would still
// act in the team's partition. The proxy before DynamoDB Local answers the index's first reads with
// nothing, as a lagging index would; the team's key ledger, read consistently, tells the deletion
// that a token is still to be found.

let proxied: ProxiedGateway;
let proxy: ResponseDroppingProxy;
let gateway: TestGateway;
beforeAll(async () => {
  proxied = await startProxiedGateway();
  ({ proxy, gateway } = proxied);
});
afterAll(() => proxied.close());

const send = (method: string, path: string, key: string, json?: unknown) =>
  call(`${gateway.baseUrl}${path}`, { method, key, ...(json === undefined ? {} : { json }) });

/** A team with one token; the owner and the token's secret. */
async function teamWithToken(): Promise<{ teamId: string; owner: TestPerson; token: string }> {
  const owner = await teams.newPerson('Owner');
  const teamId = await teams.newTeam(gateway.baseUrl, owner);
  const made = await send('POST', `/teams/${teamId}/tokens`, owner.key, {
    name: 'ci',
    scopes: ['read'],
    expiresInDays: 1,
  });
  expect(made.status).toBe(201);
  const token = (made.body as { apiKey: string }).apiKey;
  expect((await send('GET', '/projects', token)).status).toBe(200);
  return { teamId, owner, token };
}

it('revokes a token the owner index does not list yet, reading it again until it does', async () => {
  const { teamId, owner, token } = await teamWithToken();
  proxy.lagIndex(2, [teamId]);
  expect((await send('DELETE', `/teams/${teamId}`, owner.key)).status).toBe(204);
  expect((await send('GET', '/projects', token)).status).toBe(401);
});

it('fails the deletion, and keeps the team, when the index never lists the token', async () => {
  const { teamId, owner, token } = await teamWithToken();
  proxy.lagIndex(100, [teamId]);
  const refused = await send('DELETE', `/teams/${teamId}`, owner.key);
  proxy.lagIndex(0, []);
  expect({ status: refused.status, body: refused.body }).toEqual({
    status: 500,
    body: { error: 'internal_error', message: 'An unexpected error occurred' },
  });
  // Nothing of the team went, and it is open again: the deletion can be tried again.
  expect((await send('GET', `/teams/${teamId}`, owner.key)).status).toBe(200);
  expect((await send('POST', `/projects?teamId=${teamId}`, owner.key, { name: 'after' })).status).toBe(201);
  expect((await send('GET', '/projects', token)).status).toBe(200);
});
