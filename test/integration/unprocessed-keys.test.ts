import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type ProxiedGateway, startProxiedGateway } from '../support/proxied-gateway.ts';
import type { ResponseDroppingProxy } from '../support/response-dropping-proxy.ts';
import { newCaller } from '../support/users.ts';

// A read of many items by key (BatchGetItem, shared/db/batch-get.ts) that DynamoDB answers with keys
// left unprocessed, as it does past a table's capacity: the read asks again for those keys, waiting
// longer each time, and a store that never processes them fails the request with the contract's 500
// after a bounded number of calls. A proxy in front of DynamoDB Local answers BatchGetItem that way.
// The list of keys reads its page's items in one BatchGetItem.

let proxied: ProxiedGateway;
let proxy: ResponseDroppingProxy;
let gateway: TestGateway;

beforeAll(async () => {
  proxied = await startProxiedGateway();
  ({ proxy, gateway } = proxied);
});
afterAll(() => proxied.close());

/** A caller with two keys besides the one it calls with. */
async function callerWithKeys(): Promise<string> {
  const { key } = await newCaller();
  for (const name of ['first', 'second']) {
    const created = await call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json: { name } });
    expect(created.status).toBe(201);
  }
  return key;
}

const batchGets = (): number => proxy.seen('BatchGetItem').requests;

it('reads again what the store left unprocessed, and lists every key', async () => {
  const key = await callerWithKeys();
  const before = batchGets();
  proxy.leaveUnprocessed(2);
  const listed = await call(`${gateway.baseUrl}/keys`, { key });
  expect(listed.status).toBe(200);
  expect((listed.body as { keys: { name: string }[] }).keys.map(({ name }) => name)).toEqual([
    'second',
    'first',
    'test',
  ]);
  // Two answers with nothing read, then the one that read them all.
  expect(batchGets() - before).toBe(3);
});

it('answers 500 internal_error, with the rate-limit headers, when the store never processes them', async () => {
  const key = await callerWithKeys();
  const before = batchGets();
  proxy.leaveUnprocessed(10);
  const listed = await call(`${gateway.baseUrl}/keys`, { key });
  proxy.leaveUnprocessed(0);
  expect(listed.status).toBe(500);
  expect(listed.body).toEqual({ error: 'internal_error', message: expect.any(String) });
  expect(listed.headers.get('x-ratelimit-remaining')).not.toBeNull();
  // Bounded: five calls, not a spin.
  expect(batchGets() - before).toBe(5);
});
