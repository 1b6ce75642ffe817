import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { recordCommands } from '../support/dynamodb-commands.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { keyWith } from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// Projects stored before their item carried a copy of their variables' head (`variablesHead`): a
// deployment of one still builds with the variables it has, reading the head apart, and leaves the
// copy on the item, so the next create is back to 3 calls. Nothing is run by hand.

let gateway: TestGateway;
const commands = recordCommands();
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

// Pinned mid-window, as in the calls test: no request opens a new rate-limit window.
const realNow = restoreClockAfterEach();
beforeEach(() => {
  const windowStart = Math.floor(realNow() / 60_000) * 60_000;
  clock.now = () => windowStart + 30_000;
});

const post = (key: string, path: string, json: unknown) =>
  call(`${gateway.baseUrl}${path}`, { method: 'POST', key, json });

/** The project's item as an older version wrote it: without the copy. */
async function asWrittenBefore(userId: string, projectId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName('projects'),
      Key: { ownerId: userId, id: projectId },
      UpdateExpression: 'REMOVE variablesHead',
    }),
  );
}

const copyOn = async (userId: string, projectId: string) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName('projects'),
        Key: { ownerId: userId, id: projectId },
        ConsistentRead: true,
      }),
    )
  ).Item?.variablesHead;

async function deploy(key: string, projectId: string) {
  commands.take();
  const created = await post(key, '/deployments', { projectId });
  expect(created.status).toBe(201);
  return { id: (created.body as { id: string }).id, calls: commands.take() };
}

describe("a project stored before its item carried its variables' head", () => {
  it('with variables: its deployment builds with them, and the copy is made for the next', async () => {
    const { key, userId } = await newCaller();
    const projectId = ((await post(key, '/projects', { name: 'web' })).body as { id: string }).id;
    expect((await post(key, `/projects/${projectId}/env`, { key: 'TOKEN', value: 't' })).status).toBe(201);
    await asWrittenBefore(userId, projectId);

    const first = await deploy(key, projectId);
    // The project, its head apart, the copy onto the project, the variables, the snapshot, the deployment.
    expect(first.calls).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
      'QueryCommand',
      'PutItemCommand',
      'PutItemCommand',
    ]);
    const buildKey = await keyWith(gateway.baseUrl, key, ['build']);
    const env = await call(`${gateway.baseUrl}/deployments/${first.id}/build-env`, { key: buildKey });
    expect(env.body).toEqual({ variables: { TOKEN: 't' }, target: 'production' });
    expect(await copyOn(userId, projectId)).toEqual({
      version: expect.stringMatching(/^evs_/),
      count: 1,
      revision: 1,
    });

    const second = await deploy(key, projectId);
    expect(second.calls).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'PutItemCommand',
      'PutItemCommand',
    ]);
  });

  it('without variables: 3 calls from the second deployment on, and a variable added later is in the next', async () => {
    const { key, userId } = await newCaller();
    const projectId = ((await post(key, '/projects', { name: 'web' })).body as { id: string }).id;
    await asWrittenBefore(userId, projectId);

    expect((await deploy(key, projectId)).calls).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
      'PutItemCommand',
    ]);
    expect(await copyOn(userId, projectId)).toEqual({ count: 0, revision: 0 });
    expect((await deploy(key, projectId)).calls).toEqual([
      'UpdateItemCommand',
      'GetItemCommand',
      'PutItemCommand',
    ]);

    expect((await post(key, `/projects/${projectId}/env`, { key: 'LATER', value: 'l' })).status).toBe(201);
    const later = await deploy(key, projectId);
    const buildKey = await keyWith(gateway.baseUrl, key, ['build']);
    const env = await call(`${gateway.baseUrl}/deployments/${later.id}/build-env`, { key: buildKey });
    expect(env.body).toEqual({ variables: { LATER: 'l' }, target: 'production' });
  });

  it('a change of its variables makes the copy without a deployment', async () => {
    const { key, userId } = await newCaller();
    const projectId = ((await post(key, '/projects', { name: 'web' })).body as { id: string }).id;
    await asWrittenBefore(userId, projectId);
    expect(await copyOn(userId, projectId)).toBeUndefined();
    expect((await post(key, `/projects/${projectId}/env`, { key: 'A', value: 'a' })).status).toBe(201);
    expect(await copyOn(userId, projectId)).toEqual({
      version: expect.stringMatching(/^evs_/),
      count: 1,
      revision: 1,
    });
  });
});
