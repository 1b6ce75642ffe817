import { recordCommands } from '../support/dynamodb-commands.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newDeployment } from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// GET /deployments/{id}/wait over HTTP on DynamoDB Local: at once when the deployment is already
// there, on its first read after the change that gets it there, the timeout honoured, and no more
// than two reads of the store a second while it waits. Counted in reads of the store rather than
// in milliseconds: a busy machine stretches the time a read takes, not the number of reads.

let gateway: TestGateway;
const commands = recordCommands();
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const report = async (key: string, id: string, status: string) => {
  const response = await call(`${gateway.baseUrl}/deployments/${id}/events`, {
    method: 'POST',
    key,
    json: { status },
  });
  expect(response.status).toBe(200);
};

const wait = (key: string, id: string, query = '') =>
  call(`${gateway.baseUrl}/deployments/${id}/wait${query}`, { key });

/** How long `run` takes, in ms, with what it returned. */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

// The wait's reads: the consistent GetItem of its deployment (admission is one UpdateItem).
const reads = () => commands.take().filter((name) => name === 'GetItemCommand').length;

it('answers at once, reached, when the deployment is already in a state waited for', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await report(key, id, 'canceled');
  commands.take();
  const response = await wait(key, id, '?timeout=25');
  expect(response.status).toBe(200);
  expect(response.headers.get('wait-result')).toBe('reached');
  expect(response.body).toMatchObject({ id, status: 'canceled' });
  // One read, no poll: it did not wait.
  expect(reads()).toBe(1);
  const queued = await wait(key, (await newDeployment(gateway.baseUrl, key)).id, '?status=queued,building');
  expect(queued.headers.get('wait-result')).toBe('reached');
});

it('answers on its first read after the change that brings the deployment there', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  commands.take();
  let answered = false;
  const waiting = wait(key, id, '?status=ready,error&timeout=10').finally(() => {
    answered = true;
  });
  // The change comes once the wait is polling: its read at the start and the next are done.
  let polled = 0;
  while (polled < 2 && !answered) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    polled += reads();
  }
  expect(polled).toBeGreaterThanOrEqual(2);
  await report(key, id, 'building');
  await report(key, id, 'ready');
  // From here on only the wait reads: the poll after the change (a read already under way when the
  // change landed may have seen it, then none) answers, so the change is seen within one poll.
  commands.take();
  const response = await waiting;
  expect(response.headers.get('wait-result')).toBe('reached');
  expect(response.body).toMatchObject({ id, status: 'ready' });
  expect(reads()).toBeLessThanOrEqual(1);
});

it('honours the timeout, answering the deployment as it is then', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  commands.take();
  const [response, ms] = await timed(() => wait(key, id, '?timeout=2'));
  expect(response.status).toBe(200);
  expect(response.headers.get('wait-result')).toBe('timeout');
  expect(response.body).toMatchObject({ id, status: 'queued' });
  expect(ms).toBeGreaterThanOrEqual(2000);
  // One GetItem at the start and one per 500 ms: at most 2 a second, and no poll past the timeout;
  // at least one more than the first however long each read took (a poll every second or sooner).
  const polls = reads();
  expect(polls).toBeLessThanOrEqual(1 + 2 * 2);
  expect(polls).toBeGreaterThanOrEqual(3);
});

it("answers 404 for another user's deployment, and 400 for a timeout out of range or an unknown state", async () => {
  const owner = await newCaller();
  const stranger = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, owner.key)).id;
  const foreign = await wait(stranger.key, id, '?timeout=1');
  expect(foreign.status).toBe(404);
  expect(foreign.body).toEqual({ error: 'not_found', message: `Deployment ${id} was not found` });
  for (const [query, field] of [
    ['?timeout=0', 'timeout'],
    ['?timeout=26', 'timeout'],
    ['?timeout=1.5', 'timeout'],
    ['?status=done', 'status'],
  ]) {
    const bad = await wait(owner.key, id, query);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_error', field });
  }
});

it('lets a build key and a read key wait', async () => {
  const { key } = await newCaller();
  const id = (await newDeployment(gateway.baseUrl, key)).id;
  await report(key, id, 'canceled');
  for (const scopes of [['read'], ['build']]) {
    const made = await call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json: { name: 'k', scopes } });
    const scoped = (made.body as { apiKey: string }).apiKey;
    expect((await wait(scoped, id)).headers.get('wait-result')).toBe('reached');
  }
});
