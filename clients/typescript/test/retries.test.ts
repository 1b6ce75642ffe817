import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newCaller } from '../../../test/support/users.ts';
import { PlatformClient, PlatformError, RateLimitError, type RetryInfo } from '../src/index.ts';
import { type Fault, type FaultyProxy, startFaultyProxy } from './support/faulty-proxy.ts';

// Retries through a proxy in front of the real gateway that answers or loses what the plan says.

let gateway: TestGateway;
let proxy: FaultyProxy | undefined;
beforeAll(async () => {
  gateway = await startGateway();
});
afterEach(() => proxy?.close());
afterAll(() => gateway.close());

const unavailable: Fault = {
  status: 503,
  body: { error: 'internal_error', message: 'An unexpected error occurred' },
};

async function through(plan: (n: number) => Fault, maxRetries?: number) {
  proxy = await startFaultyProxy(gateway.backendUrl, plan);
  const { key } = await newCaller();
  const retries: RetryInfo[] = [];
  const client = new PlatformClient({
    baseUrl: `${proxy.url}/v1`,
    backendUrl: proxy.url,
    apiKey: key,
    onRetry: (retry) => retries.push(retry),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  return { client, requests: proxy.requests, retries };
}

describe('retries', () => {
  it('retries a 429 after its Retry-After: 1, waiting that second and no more', async () => {
    const tooMany: Fault = {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: 'rate_limit_exceeded', retryAfter: 1 },
    };
    const { client, requests, retries } = await through((n) => (n === 0 ? tooMany : 'forward'));
    const { projects } = await client.projects.list().page();
    expect(projects).toEqual([]);
    expect(requests).toHaveLength(2);
    // The wait it chose is the header's, not a backoff of its own on top (which reaches 8 s); a busy
    // machine makes the wait it measures longer, never shorter, so only that bound is judged.
    expect(retries).toEqual([{ attempt: 0, delayMs: 1000, status: 429 }]);
    expect((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries a POST answered 409 with Retry-After (its key held by a request still running), and gets the one resource', async () => {
    const inProgress: Fault = {
      status: 409,
      headers: { 'retry-after': '1' },
      body: {
        error: 'conflict',
        message: 'A request with this Idempotency-Key is still in progress; retry later',
      },
    };
    const { client, requests } = await through((n) => (n === 0 ? inProgress : 'forward'));
    const project = await client.projects.create({ name: 'after-the-first' });
    expect(requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(requests[1]?.headers['idempotency-key']).toBe(requests[0]?.headers['idempotency-key']);
    expect((await client.projects.list().page()).projects).toEqual([project]);
  });

  it('does not retry a 409 without Retry-After: a conflict that waiting does not change', async () => {
    const taken: Fault = {
      status: 409,
      body: { error: 'conflict', message: 'A project with this name exists' },
    };
    const { client, requests } = await through(() => taken);
    await expect(client.projects.create({ name: 'taken' })).rejects.toBeInstanceOf(PlatformError);
    expect(requests).toHaveLength(1);
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key, and gets the one resource created', async () => {
    const { client, requests } = await through((n) => (n === 0 ? 'lose-answer' : 'forward'));
    const project = await client.projects.create({ name: 'once' });
    expect(requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    const [first, second] = requests.map((request) => request.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(second).toBe(first);
    const { projects } = await client.projects.list().page();
    expect(projects).toEqual([project]);
  });

  it("sends the caller's own Idempotency-Key on every attempt", async () => {
    const { client, requests } = await through((n) => (n === 0 ? unavailable : 'forward'));
    await client.projects.create({ name: 'mine' }, { idempotencyKey: 'my-key-1' });
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual(['my-key-1', 'my-key-1']);
  });

  it('makes at most three attempts with maxRetries 2, then throws the last answer', async () => {
    const { client, requests, retries } = await through(() => unavailable);
    const error = await client.projects.get('prj_x').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 503, code: 'internal_error' });
    expect(requests).toHaveLength(3);
    // No Retry-After: the backoff, 0.5 s then 1 s, each with up to half taken off as jitter.
    expect(retries.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 0, status: 503 },
      { attempt: 1, status: 503 },
    ]);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(250);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(500);
    expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(500);
    expect(retries[1]?.delayMs).toBeLessThanOrEqual(1000);
  }, 20_000);

  it('retries a GET after a network error', async () => {
    const { client, requests, retries } = await through((n) => (n === 0 ? 'lose-answer' : 'forward'));
    expect((await client.projects.list().page()).projects).toEqual([]);
    expect(requests.map((request) => request.method)).toEqual(['GET', 'GET']);
    // fetch's own error (a TypeError of Node's realm, not of this test's).
    expect(retries).toEqual([
      {
        attempt: 0,
        delayMs: expect.any(Number),
        error: expect.objectContaining({ message: 'fetch failed' }),
      },
    ]);
  });

  it('does not retry when the call allows no retries', async () => {
    const { client, requests } = await through((n) => (n === 0 ? 'lose-answer' : 'forward'));
    await expect(client.projects.create({ name: 'lost' }, { maxRetries: 0 })).rejects.toThrow('fetch failed');
    expect(requests).toHaveLength(1);
  });

  it('never retries a PATCH, nor a POST that takes no Idempotency-Key', async () => {
    const { client, requests } = await through(() => unavailable);
    await expect(client.projects.update('prj_x', { name: 'y' })).rejects.toMatchObject({ status: 503 });
    await expect(client.auth.login({ email: 'a@example.com', password: 'whatever1' })).rejects.toMatchObject({
      status: 503,
    });
    expect(requests.map((request) => request.method)).toEqual(['PATCH', 'POST']);
  });

  it('gives up on a 429 after maxRetries with a RateLimitError carrying retryAfter', async () => {
    const tooMany: Fault = {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: 'rate_limit_exceeded', retryAfter: 3 },
    };
    const { client, requests } = await through(() => tooMany, 1);
    const error = await client.keys
      .list()
      .page()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 3 });
    expect(requests).toHaveLength(2);
  });
});
