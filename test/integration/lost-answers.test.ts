import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type ProxiedGateway, startProxiedGateway } from '../support/proxied-gateway.ts';
import { keyWith } from '../support/resources.ts';
import type { DropOptions, ResponseDroppingProxy } from '../support/response-dropping-proxy.ts';
import { newCaller } from '../support/users.ts';

// Writes applied whose answers were lost (issue 38, item 1), in every loop that reads again and
// decides again after a write it believes failed: the variables' changes (`serially`), production
// moves and log appends. A proxy in front of DynamoDB Local lets the write be applied and cuts the
// connection before its answer returns; the SDK sends it again. The retry either carries the
// transaction's ClientRequestToken (DynamoDB answers it as done) or, `forgetToken`, reaches the store
// as a new request that fails its own condition: then the loop reads what its own write left, and
// must take it as done, never as someone else's change to undo, refuse or repeat.

let proxied: ProxiedGateway;
let proxy: ResponseDroppingProxy;
let gateway: TestGateway;

beforeAll(async () => {
  proxied = await startProxiedGateway();
  ({ proxy, gateway } = proxied);
});
afterAll(() => proxied.close());

const WRITES = ['UpdateItem', 'TransactWriteItems', 'PutItem'];
/** The head of a project's variables, as its key appears in a request's body. */
const HEAD_KEY = '"sk":{"S":"set"}';

const post = (key: string, path: string, json: unknown) =>
  call(`${gateway.baseUrl}${path}`, { method: 'POST', key, json });

async function newProject(key: string): Promise<string> {
  const created = await post(key, '/projects', { name: 'web' });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

/** Drops the answer of the next write whose body holds all of `containing`, and checks it was dropped. */
async function withLostAnswer<T>(containing: string[], options: DropOptions, request: () => Promise<T>) {
  const dropped = () => WRITES.reduce((sum, operation) => sum + proxy.seen(operation).dropped, 0);
  const before = dropped();
  proxy.dropNext(WRITES, { ...options, containing });
  const answer = await request();
  expect(dropped() - before).toBe(1);
  return answer;
}

/** The variable items in the project's partition, of every version. */
async function storedVariableCount(projectId: string): Promise<number> {
  const { Count = 0 } = await db.send(
    new QueryCommand({
      TableName: tableName('environment'),
      KeyConditionExpression: 'projectId = :project AND begins_with(sk, :variables)',
      ExpressionAttributeValues: { ':project': projectId, ':variables': 'var#' },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return Count;
}

const variablesOf = async (key: string, projectId: string) => {
  const listed = await call(`${gateway.baseUrl}/projects/${projectId}/env?limit=100`, { key });
  expect(listed.status).toBe(200);
  return (listed.body as { variables: { key: string; value?: string }[] }).variables
    .map(({ key: name, value }) => ({ key: name, value }))
    .sort((a, b) => a.key.localeCompare(b.key));
};

describe.each([
  ['the retry carries its token', {}],
  ['the retry is judged afresh', { forgetToken: true }],
] as const)("a project's variables, when a change's answer is lost and %s", (_case, options) => {
  it('a replace keeps the set it installed, and the old set is gone', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    expect((await post(key, `/projects/${projectId}/env`, { key: 'OLD', value: 'o' })).status).toBe(201);
    const replaced = await withLostAnswer([projectId, HEAD_KEY], options, () =>
      call(`${gateway.baseUrl}/projects/${projectId}/env`, {
        method: 'PUT',
        key,
        json: {
          variables: [
            { key: 'A', value: 'a' },
            { key: 'B', value: 'b' },
          ],
        },
      }),
    );
    expect(replaced.status).toBe(200);
    expect(await variablesOf(key, projectId)).toEqual([
      { key: 'A', value: 'a' },
      { key: 'B', value: 'b' },
    ]);
    // Stored: the two of the new set, nothing left of the old one.
    expect(await storedVariableCount(projectId)).toBe(2);
  });

  it('a create answers 201 with the variable, which exists once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const created = await withLostAnswer([projectId, HEAD_KEY], options, () =>
      post(key, `/projects/${projectId}/env`, { key: 'NEW', value: 'n' }),
    );
    expect({ status: created.status, key: (created.body as { key?: string }).key }).toEqual({
      status: 201,
      key: 'NEW',
    });
    expect(await variablesOf(key, projectId)).toEqual([{ key: 'NEW', value: 'n' }]);
  });

  it('a delete answers 204 and the variable is gone', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const made = await post(key, `/projects/${projectId}/env`, { key: 'GONE', value: 'g' });
    const envId = (made.body as { id: string }).id;
    const deleted = await withLostAnswer([projectId, HEAD_KEY], options, () =>
      call(`${gateway.baseUrl}/projects/${projectId}/env/${envId}`, { method: 'DELETE', key }),
    );
    expect(deleted.status).toBe(204);
    expect(await variablesOf(key, projectId)).toEqual([]);
  });

  it('an update answers 200 with the new value', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const made = await post(key, `/projects/${projectId}/env`, { key: 'CHANGED', value: 'before' });
    const envId = (made.body as { id: string }).id;
    const updated = await withLostAnswer([projectId, HEAD_KEY], options, () =>
      call(`${gateway.baseUrl}/projects/${projectId}/env/${envId}`, {
        method: 'PATCH',
        key,
        json: { value: 'after' },
      }),
    );
    expect(updated.status).toBe(200);
    expect(await variablesOf(key, projectId)).toEqual([{ key: 'CHANGED', value: 'after' }]);
  });
});

/** A ready production deployment of the project (promoted automatically unless told otherwise). */
async function readyDeployment(key: string, projectId: string, json: Record<string, unknown> = {}) {
  const created = await post(key, '/deployments', { projectId, ...json });
  const { id } = created.body as { id: string };
  await post(key, `/deployments/${id}/events`, { status: 'building' });
  return { id, ready: () => post(key, `/deployments/${id}/events`, { status: 'ready' }) };
}

const historyOf = async (key: string, projectId: string) => {
  const listed = await call(`${gateway.baseUrl}/projects/${projectId}/production-history`, { key });
  return (listed.body as { moves: { deploymentId: string; reason: string }[] }).moves.map(
    ({ deploymentId, reason }) => ({ deploymentId, reason }),
  );
};

const productionOf = async (key: string, projectId: string) =>
  (
    (await call(`${gateway.baseUrl}/projects/${projectId}`, { key })).body as {
      production: { deploymentId: string } | null;
    }
  ).production?.deploymentId;

describe.each([
  ['the retry carries its token', {}],
  ['the retry is judged afresh', { forgetToken: true }],
] as const)('production, when a move’s answer is lost and %s', (_case, options) => {
  it('an automatic promotion moves once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const first = await readyDeployment(key, projectId);
    const ready = await withLostAnswer([projectId, 'production#'], options, first.ready);
    expect(ready.status).toBe(200);
    expect(await productionOf(key, projectId)).toBe(first.id);
    expect(await historyOf(key, projectId)).toEqual([{ deploymentId: first.id, reason: 'auto' }]);
  });

  it('a rollback answers 200 and moves once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const first = await readyDeployment(key, projectId);
    await first.ready();
    const second = await readyDeployment(key, projectId);
    await second.ready();
    const rolledBack = await withLostAnswer([projectId, 'production#'], options, () =>
      post(key, `/projects/${projectId}/rollback`, {}),
    );
    expect({ status: rolledBack.status, production: rolledBack.body }).toMatchObject({
      status: 200,
      production: { production: { deploymentId: first.id, reason: 'rollback' }, autoPromotion: false },
    });
    expect(await historyOf(key, projectId)).toEqual([
      { deploymentId: first.id, reason: 'rollback' },
      { deploymentId: second.id, reason: 'auto' },
      { deploymentId: first.id, reason: 'auto' },
    ]);
  });

  it('a promote answers 200 and moves once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const production = await readyDeployment(key, projectId);
    await production.ready();
    const preview = await readyDeployment(key, projectId, { branch: 'feature' });
    await preview.ready();
    const promoted = await withLostAnswer([projectId, 'production#'], options, () =>
      post(key, `/projects/${projectId}/promote`, { deploymentId: preview.id }),
    );
    expect({ status: promoted.status, body: promoted.body }).toMatchObject({
      status: 200,
      body: { production: { deploymentId: preview.id, reason: 'promote' } },
    });
    expect(await historyOf(key, projectId)).toEqual([
      { deploymentId: preview.id, reason: 'promote' },
      { deploymentId: production.id, reason: 'auto' },
    ]);
  });
});

describe('a status report, when its answer is lost', () => {
  it('answers 200 with the deployment in the reported status, the event recorded once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const { id } = (await post(key, '/deployments', { projectId })).body as { id: string };
    const reported = await withLostAnswer([id, '"building"'], {}, () =>
      post(key, `/deployments/${id}/events`, { status: 'building' }),
    );
    expect({ status: reported.status, deployment: reported.body }).toMatchObject({
      status: 200,
      deployment: { id, status: 'building' },
    });
    const events = await call(`${gateway.baseUrl}/deployments/${id}/events`, { key });
    expect((events.body as { events: { status: string }[] }).events.map(({ status }) => status)).toEqual([
      'queued',
      'building',
    ]);
  });
});

describe.each([
  ['the retry carries its token', {}],
  ['the retry is judged afresh', { forgetToken: true }],
] as const)('a log append, when its answer is lost and %s', (_case, options) => {
  it('answers 201 with its numbers, and its lines are stored once', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const created = await post(key, '/deployments', { projectId });
    const { id } = created.body as { id: string };
    const build = await keyWith(gateway.baseUrl, key, ['build']);
    await post(build, `/deployments/${id}/logs`, { lines: [{ text: 'one' }] });
    const appended = await withLostAnswer([id, 'line#'], options, () =>
      post(build, `/deployments/${id}/logs`, { lines: [{ text: 'two' }, { text: 'three' }] }),
    );
    expect({ status: appended.status, body: appended.body }).toEqual({
      status: 201,
      body: { firstSeq: 2, lastSeq: 3 },
    });
    const log = await call(`${gateway.baseUrl}/deployments/${id}/logs`, { key });
    expect(
      (log.body as { lines: { seq: number; text: string }[] }).lines.map(({ seq, text }) => ({ seq, text })),
    ).toEqual([
      { seq: 1, text: 'one' },
      { seq: 2, text: 'two' },
      { seq: 3, text: 'three' },
    ]);
  });
});

describe("an Idempotency-Key's claim whose answer was lost", () => {
  it('goes on as claimed: 201 once, not its own 409 "still in progress", and the retry is replayed', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    const create = () =>
      call(`${gateway.baseUrl}/projects`, {
        method: 'POST',
        key,
        json: { name: 'web' },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    // The claim is the one write that puts a record `in_progress`.
    const created = await withLostAnswer(['"in_progress"'], {}, create);
    expect(created.status).toBe(201);
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    const listed = await call(`${gateway.baseUrl}/projects`, { key });
    expect((listed.body as { projects: unknown[] }).projects).toHaveLength(1);
  });
});
