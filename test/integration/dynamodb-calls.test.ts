import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { recordCommands } from '../support/dynamodb-commands.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';
import { newCaller } from '../support/users.ts';

// Counts the DynamoDB round trips a request costs, by a middleware on the service's own client.

let gateway: TestGateway;
const commands = recordCommands();
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

// Pinned mid-window: a request that crossed into a new rate-limit window would make one more write
// (opening the window), which is not what these counts are about.
const realNow = restoreClockAfterEach();
beforeEach(() => {
  const windowStart = Math.floor(realNow() / 60_000) * 60_000;
  clock.now = () => windowStart + 30_000;
});

async function countCalls(request: () => Promise<unknown>): Promise<string[]> {
  commands.take();
  await request();
  return commands.take();
}

describe('DynamoDB round trips per request', () => {
  it('GET /projects/{id}: 2 (auth and count, then the project)', async () => {
    const { key } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const id = (created.body as { id: string }).id;
    expect(await countCalls(() => call(`${gateway.baseUrl}/projects/${id}`, { key }))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
    ]);
  });

  it("POST /deployments: 3 (auth and count, the project with its variables' head, the deployment); 5 with variables (them, their snapshot)", async () => {
    const { key } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (created.body as { id: string }).id;
    const deploy = () => call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json: { projectId } });
    // A project without variables: its item says so, no snapshot is written (the deployment keeps its target).
    expect(await countCalls(deploy)).toEqual(['UpdateItemCommand', 'GetItemCommand', 'PutItemCommand']);
    await call(`${gateway.baseUrl}/projects/${projectId}/env`, {
      method: 'POST',
      key,
      json: { key: 'TOKEN', value: 'v' },
    });
    expect(await countCalls(deploy)).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'PutItemCommand',
      'PutItemCommand',
    ]);
  });

  it("in a shared team, as in a personal one, GET /projects/{id} is 2 and POST /deployments 3: the caller's membership is read in one BatchGetItem with the project", async () => {
    const [owner, developer] = await Promise.all([newPerson('Owner'), newPerson('Dev')]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');
    const created = await call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
      method: 'POST',
      key: owner.key,
      json: { name: 'web' },
    });
    const projectId = (created.body as { id: string }).id;
    // A member the team's owner did not make the project for: their role comes from the same read.
    const read = () =>
      call(`${gateway.baseUrl}/projects/${projectId}?teamId=${teamId}`, { key: developer.key });
    const deploy = () =>
      call(`${gateway.baseUrl}/deployments?teamId=${teamId}`, {
        method: 'POST',
        key: developer.key,
        json: { projectId },
      });
    expect(await countCalls(read)).toEqual(['UpdateItemCommand', 'BatchGetItemCommand']);
    expect(await countCalls(deploy)).toEqual(['UpdateItemCommand', 'BatchGetItemCommand', 'PutItemCommand']);
    // Both answered: the counts are of requests that did their work.
    expect([(await read()).status, (await deploy()).status]).toEqual([200, 201]);
  });

  it('deployment lifecycle: report and cancel 2 (auth, one conditional update, refused or not); events 2', async () => {
    const { key } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (created.body as { id: string }).id;
    const deploy = (json: unknown) => call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json });
    const { id } = (await deploy({ projectId })).body as { id: string };
    const report = () =>
      call(`${gateway.baseUrl}/deployments/${id}/events`, {
        method: 'POST',
        key,
        json: { status: 'building' },
      });
    expect(await countCalls(report)).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    // Refused by the write's condition, which answers with the status that refused it.
    expect(await countCalls(report)).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    const cancel = () => call(`${gateway.baseUrl}/deployments/${id}/cancel`, { method: 'POST', key });
    expect(await countCalls(cancel)).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    expect(await countCalls(() => call(`${gateway.baseUrl}/deployments/${id}/events`, { key }))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
    ]);
    // A redeploy reads the deployment it copies (its target with it) instead of the project, and
    // so the variables' head apart.
    expect(await countCalls(() => deploy({ redeployOf: id }))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'PutItemCommand',
    ]);
  });

  it('production: ready of a production deployment 3 (report 2, one transaction: the production it was created over is tried first); promote 4, rollback 5 (its marker); history 3', async () => {
    const { key } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (created.body as { id: string }).id;
    const post = (path: string, json: unknown) =>
      call(`${gateway.baseUrl}${path}`, { method: 'POST', key, json });
    const building = async () => {
      const { id } = (await post('/deployments', { projectId })).body as { id: string };
      await post(`/deployments/${id}/events`, { status: 'building' });
      return id;
    };
    const readyOne = async (id: string) => ({
      id,
      calls: await countCalls(() => post(`/deployments/${id}/events`, { status: 'ready' })),
    });
    const first = await readyOne(await building());
    expect(first.calls).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand']);
    // Created before the one that is production now: its first try fails its condition, then the
    // project is read and the move decided on it.
    const older = await building();
    const newer = await building();
    expect((await readyOne(newer)).calls).toHaveLength(3);
    const late = await readyOne(older);
    expect(late.calls).toEqual([
      'UpdateItemCommand',
      'UpdateItemCommand',
      'TransactWriteItemsCommand',
      'GetItemCommand',
    ]);
    // Auth, the project, the deployment, one transaction.
    expect(
      await countCalls(() => post(`/projects/${projectId}/promote`, { deploymentId: first.id })),
    ).toEqual(['UpdateItemCommand', 'GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
    // Auth, the project, the deployment, where a rollback from it goes, one transaction.
    expect(await countCalls(() => post(`/projects/${projectId}/rollback`, {}))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(
      await countCalls(() => call(`${gateway.baseUrl}/projects/${projectId}/production-history`, { key })),
    ).toEqual(['UpdateItemCommand', 'GetItemCommand', 'QueryCommand']);
  });

  it('deployment lists: one Query whatever the filters, plus the project when one is named', async () => {
    const { key } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (created.body as { id: string }).id;
    const list = (path: string) => () => call(`${gateway.baseUrl}${path}`, { key });
    expect(await countCalls(list('/deployments'))).toEqual(['UpdateItemCommand', 'QueryCommand']);
    expect(await countCalls(list('/deployments?status=ready&branch=main'))).toEqual([
      'UpdateItemCommand',
      'QueryCommand',
    ]);
    expect(await countCalls(list('/deployments?status=ready,error'))).toEqual([
      'UpdateItemCommand',
      'QueryCommand',
    ]);
    expect(await countCalls(list(`/deployments?projectId=${projectId}&branch=main`))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'QueryCommand',
    ]);
    expect(await countCalls(list(`/projects/${projectId}/deployments?status=ready,error,canceled`))).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'QueryCommand',
    ]);
  });

  it('POST /projects: 2 without an Idempotency-Key; 4 with one (claim, then the answer); 1 for a replay', async () => {
    const { key } = await newCaller();
    const create = (headers: Record<string, string> = {}) =>
      call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' }, headers });
    expect(await countCalls(() => create())).toEqual(['UpdateItemCommand', 'PutItemCommand']);
    const withKey = () => create({ 'Idempotency-Key': 'calls-test' });
    expect(await countCalls(withKey)).toEqual([
      'UpdateItemCommand',
      'PutItemCommand',
      'PutItemCommand',
      'UpdateItemCommand',
    ]);
    expect(await countCalls(withKey)).toEqual(['UpdateItemCommand', 'PutItemCommand']);
  });

  it('keys: create 3 (auth and count, the ledger, one transaction); list 3 (auth and count, one Query of the keys-only index, the page items); revoke 4 (auth, the index, the revocation, the ledger); logout 3', async () => {
    const { key } = await newCaller();
    let made = await call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json: { name: 'first' } });
    expect(
      await countCalls(async () => {
        made = await call(`${gateway.baseUrl}/keys`, { method: 'POST', key, json: { name: 'ci' } });
      }),
    ).toEqual(['UpdateItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
    const { apiKey, key: shown } = made.body as { apiKey: string; key: { id: string } };
    expect(await countCalls(() => call(`${gateway.baseUrl}/keys`, { key }))).toEqual([
      'UpdateItemCommand',
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    expect(
      await countCalls(() => call(`${gateway.baseUrl}/keys/${shown.id}`, { method: 'DELETE', key })),
    ).toEqual(['UpdateItemCommand', 'QueryCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
    const { key: other } = await newCaller();
    expect(
      await countCalls(() => call(`${gateway.backendUrl}/auth/logout`, { method: 'POST', key: other })),
    ).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
    expect(apiKey).toMatch(/^plat_/);
  });

  it('a request without a key: 1 (the per-address counter)', async () => {
    expect(await countCalls(() => call(`${gateway.baseUrl}/projects`))).toEqual(['UpdateItemCommand']);
  });

  it('a request with a malformed key: 1, the checksum is checked without a lookup', async () => {
    expect(await countCalls(() => call(`${gateway.baseUrl}/projects`, { key: 'plat_nope' }))).toEqual([
      'UpdateItemCommand',
    ]);
  });

  it('GET /projects: 2 (auth and count, one Query)', async () => {
    const { key } = await newCaller();
    expect(await countCalls(() => call(`${gateway.baseUrl}/projects`, { key }))).toEqual([
      'UpdateItemCommand',
      'QueryCommand',
    ]);
  });

  it("GET /teams/{teamId}: 2, the team read with the caller's membership in one BatchGetItem; a non-member 404 after the same 2", async () => {
    const [owner, viewer, stranger] = await Promise.all([
      newPerson('Owner'),
      newPerson('Viewer'),
      newPerson(),
    ]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, viewer, 'viewer');
    const read = (key: string) => call(`${gateway.baseUrl}/teams/${teamId}`, { key });
    let answer: Awaited<ReturnType<typeof read>> | undefined;
    expect(
      await countCalls(async () => {
        answer = await read(viewer.key);
      }),
    ).toEqual(['UpdateItemCommand', 'BatchGetItemCommand']);
    expect(answer?.status).toBe(200);
    expect(answer?.body).toMatchObject({ id: teamId, role: 'viewer', personal: false });
    expect(
      await countCalls(async () => {
        answer = await read(stranger.key);
      }),
    ).toEqual(['UpdateItemCommand', 'BatchGetItemCommand']);
    expect(answer?.status).toBe(404);
  });

  it('login: an unknown email and a wrong password cost the same calls before the password check', async () => {
    const email = uniqueEmail('timing');
    const post = (path: string, json: unknown) =>
      call(`${gateway.backendUrl}${path}`, { method: 'POST', json });
    await post('/auth/register', { email, password: 'the right password' });
    const wrongPassword = await countCalls(() =>
      post('/auth/login', { email, password: 'a wrong password' }),
    );
    const unknownEmail = await countCalls(() =>
      post('/auth/login', { email: uniqueEmail('nobody'), password: 'a wrong password' }),
    );
    // Per-address counter, per-email counter, the credentials; then the hash in both cases.
    expect(wrongPassword).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'GetItemCommand']);
    expect(unknownEmail).toEqual(wrongPassword);
  });
});
