import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type ProxiedGateway, startProxiedGateway } from '../support/proxied-gateway.ts';
import type { ResponseDroppingProxy } from '../support/response-dropping-proxy.ts';

// A registration whose transaction was applied but whose answer was lost (issue 22, item 3): the
// transaction is sent again, and whatever the store makes of it, the answer must be the 201 of the
// account just created, not a 409 "email taken". DynamoDB Local never cancels a transaction for a
// conflict, so the loss is made on the wire: a proxy in front of it forwards the first
// TransactWriteItems, lets it be applied, and cuts the connection before the answer returns; the
// SDK then retries. The SDK's retry carries the same ClientRequestToken, which DynamoDB (and
// DynamoDB Local) take as the same transaction; a retry without it fails its own conditions.

let proxied: ProxiedGateway;
let proxy: ResponseDroppingProxy;
let gateway: TestGateway;

beforeAll(async () => {
  proxied = await startProxiedGateway();
  ({ proxy, gateway } = proxied);
});
afterAll(() => proxied.close());

const register = (email: string) =>
  call(`${gateway.backendUrl}/auth/register`, {
    method: 'POST',
    json: { email, password: 'correct horse battery', name: 'Lost Answer' },
  });

const uniqueEmail = () => `lost-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;

async function expectRegistered(email: string, response: Awaited<ReturnType<typeof register>>) {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 201,
    body: {
      id: expect.stringMatching(/^usr_/),
      email,
      name: 'Lost Answer',
      role: 'member',
      createdAt: expect.any(String),
    },
  });
  const login = await call(`${gateway.backendUrl}/auth/login`, {
    method: 'POST',
    json: { email, password: 'correct horse battery' },
  });
  expect(login.status).toBe(200);
  expect((login.body as { user: { id: string } }).user.id).toBe((response.body as { id: string }).id);
  // Another registration of the same email is still the contract's 409.
  expect((await register(email)).status).toBe(409);
}

it("answers 201 when the SDK's retry of the applied transaction carries its token", async () => {
  const email = uniqueEmail();
  const before = proxy.seen('TransactWriteItems');
  proxy.dropNext('TransactWriteItems');
  const response = await register(email);
  const after = proxy.seen('TransactWriteItems');
  expect({ requests: after.requests - before.requests, dropped: after.dropped - before.dropped }).toEqual({
    requests: 2,
    dropped: 1,
  });
  await expectRegistered(email, response);
});

it('answers 201 when the retry of the applied transaction fails its own conditions', async () => {
  const email = uniqueEmail();
  proxy.dropNext('TransactWriteItems', { forgetToken: true });
  await expectRegistered(email, await register(email));
});
