import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type StreamPoller, startStreamPoller } from '#infra/local/stream-poller.ts';
import { streamConsumers } from '#shared/consumers.ts';
import { db } from '#shared/db/client.ts';
import { putDeployment } from '#shared/db/deployments/writes.ts';
import { tableName } from '#shared/db/tables.ts';
import { newId } from '#shared/model/ids.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { builderOf } from '../support/resources.ts';
import { newCaller, ownedByThisRun } from '../support/users.ts';

// The rest of a project's life: changed with PATCH, gone with DELETE, its deployments with it.

// The projects table's stream feeds the purge consumer, as in AWS (npm start runs the same poller),
// with this file's projects only: other files' removals are theirs to purge (test/support/users.ts).
let gateway: TestGateway;
let poller: StreamPoller;
beforeAll(async () => {
  gateway = await startGateway();
  poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 100,
    consumers: streamConsumers.filter((consumer) => consumer.handler === 'purge-project'),
    accepts: ownedByThisRun,
  });
});
afterAll(async () => {
  await poller.stop();
  await gateway.close();
});

interface Project {
  id: string;
  name: string;
  repository: string | null;
  productionBranch: string;
  createdAt: string;
  updatedAt: string;
}

const projectsUrl = () => `${gateway.baseUrl}/projects`;
const projectUrl = (id: string) => `${gateway.baseUrl}/projects/${id}`;

async function newProject(key: string, json: Record<string, unknown> = { name: 'web' }): Promise<Project> {
  const response = await call(projectsUrl(), { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return response.body as Project;
}

const patch = (key: string, id: string, json: unknown) =>
  call(projectUrl(id), { method: 'PATCH', key, json });
const remove = (key: string, id: string) => call(projectUrl(id), { method: 'DELETE', key });
const statusOf = async (response: Promise<JsonResponse>) => (await response).status;

describe('PATCH /projects/{id}', () => {
  it('changes each field it is given, keeps the others, and moves updatedAt', async () => {
    const { key } = await newCaller();
    const project = await newProject(key, { name: 'web', repository: 'acme/web' });
    await new Promise((resolve) => setTimeout(resolve, 5));

    const renamed = await patch(key, project.id, { name: '  web-app  ' });
    expect(renamed.status).toBe(200);
    const body = renamed.body as Project;
    expect(body).toEqual({ ...project, name: 'web-app', updatedAt: expect.any(String) });
    expect(body.updatedAt > project.updatedAt).toBe(true);

    const moved = await patch(key, project.id, { productionBranch: 'release/1', repository: null });
    expect(moved.body).toMatchObject({ name: 'web-app', productionBranch: 'release/1', repository: null });
    const read = await call(projectUrl(project.id), { key });
    expect(read.body).toEqual(moved.body);
  });

  it.each([
    [{}, 'body', 'body must change at least one of name, repository and productionBranch'],
    [{ name: '   ' }, 'name', 'name must not be empty'],
    [{ repository: 'not a repo' }, 'repository', 'repository must be an https URL or owner/name'],
    [
      { productionBranch: 'bad..branch' },
      'productionBranch',
      'productionBranch must be a valid git branch name of at most 255 characters',
    ],
    [{ id: 'prj_other' }, 'id', 'id is not a known field'],
    [{ createdAt: '2020-01-01T00:00:00.000Z' }, 'createdAt', 'createdAt is not a known field'],
  ])('refuses %j with 400 naming %s, and changes nothing', async (json, field, message) => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const response = await patch(key, project.id, json);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
    expect((response.body as { message: string }).message).toBe(message);
    expect((await call(projectUrl(project.id), { key })).body).toEqual(project);
  });

  it("answers another user's project with 404 and leaves it as it was", async () => {
    const owner = await newCaller();
    const other = await newCaller();
    const project = await newProject(owner.key);
    const response = await patch(other.key, project.id, { name: 'mine now' });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'not_found' });
    expect((await call(projectUrl(project.id), { key: owner.key })).body).toEqual(project);
  });

  it('answers an unknown project with 404 and creates nothing', async () => {
    const { key } = await newCaller();
    const id = newId('prj');
    expect(await statusOf(patch(key, id, { name: 'ghost' }))).toBe(404);
    expect(await statusOf(call(projectUrl(id), { key }))).toBe(404);
  });

  it('needs a key with the write scope', async () => {
    const owner = await newCaller();
    const project = await newProject(owner.key);
    const reader = await newCaller({ scopes: ['read'] });
    expect(await statusOf(patch(reader.key, project.id, { name: 'x' }))).toBe(403);
  });
});

describe('DELETE /projects/{id}', () => {
  it('answers 204; the project is then 404, gone from the list, and a second DELETE is 404', async () => {
    const { key } = await newCaller();
    const kept = await newProject(key, { name: 'kept' });
    const project = await newProject(key, { name: 'doomed' });
    const response = await remove(key, project.id);
    expect(response.status).toBe(204);
    expect(await statusOf(call(projectUrl(project.id), { key }))).toBe(404);
    expect(((await call(projectsUrl(), { key })).body as { projects: Project[] }).projects).toEqual([kept]);
    expect(await statusOf(remove(key, project.id))).toBe(404);
    expect(await statusOf(patch(key, project.id, { name: 'back' }))).toBe(404);
  });

  it("answers another user's project with 404 and leaves it", async () => {
    const owner = await newCaller();
    const other = await newCaller();
    const project = await newProject(owner.key);
    expect(await statusOf(remove(other.key, project.id))).toBe(404);
    expect(await statusOf(call(projectUrl(project.id), { key: owner.key }))).toBe(200);
  });

  it('takes its deployments and their histories with it', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const other = await newProject(key, { name: 'other' });
    const deploy = (projectId: string) =>
      call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json: { projectId, branch: 'main' } });
    const doomed = (await deploy(project.id)).body as { id: string };
    const survivor = (await deploy(other.id)).body as { id: string };

    expect(await statusOf(remove(key, project.id))).toBe(204);
    expect(await statusOf(call(`${gateway.baseUrl}/deployments/${doomed.id}`, { key }))).toBe(404);
    expect(await statusOf(call(`${gateway.baseUrl}/deployments/${doomed.id}/events`, { key }))).toBe(404);
    expect(await statusOf(call(`${gateway.baseUrl}/projects/${project.id}/deployments`, { key }))).toBe(404);
    const listed = (await call(`${gateway.baseUrl}/deployments`, { key })).body as {
      deployments: { id: string }[];
    };
    expect(listed.deployments.map((deployment) => deployment.id)).toEqual([survivor.id]);
  });

  it("takes its deployments' build logs with it, and leaves other projects' logs", async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const other = await newProject(key, { name: 'other' });
    const deployWithLog = async (projectId: string) => {
      const created = await call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key,
        json: { projectId },
      });
      const { id } = created.body as { id: string };
      for (const text of ['one', 'two', 'three']) {
        const appended = await call(`${gateway.baseUrl}/deployments/${id}/logs`, {
          method: 'POST',
          key: await builderOf(gateway.baseUrl, key),
          json: { lines: [{ text }] },
        });
        expect(appended.status).toBe(201);
      }
      return id;
    };
    const doomed = await deployWithLog(project.id);
    const survivor = await deployWithLog(other.id);

    expect(await statusOf(remove(key, project.id))).toBe(204);
    const stored = async (deploymentId: string) =>
      (
        await db.send(
          new QueryCommand({
            TableName: tableName('deploymentLogs'),
            KeyConditionExpression: 'deploymentId = :id',
            ExpressionAttributeValues: { ':id': deploymentId },
          }),
        )
      ).Items?.length ?? 0;
    // The head and one item per append.
    expect({ doomed: await stored(doomed), survivor: await stored(survivor) }).toEqual({
      doomed: 0,
      survivor: 4,
    });
    expect(await statusOf(call(`${gateway.baseUrl}/deployments/${doomed}/logs`, { key }))).toBe(404);
  });

  it('answers quickly for a project with many deployments, and none of them is left', async () => {
    const { userId, key } = await newCaller();
    const project = await newProject(key);
    const count = 150;
    const now = new Date().toISOString();
    for (let start = 0; start < count; start += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, count - start) }, () =>
          putDeployment(userId, {
            id: newId('dpl'),
            projectId: project.id,
            branch: 'main',
            status: 'queued',
            target: 'production',
            createdAt: now,
            updatedAt: now,
          }),
        ),
      );
    }
    // Answered within the request's deadline (past it, the answer would be a 504), however many
    // there are: the DELETE spends at most a second purging, and the rest goes in the background.
    expect(await statusOf(remove(key, project.id))).toBe(204);
    expect(await statusOf(call(projectUrl(project.id), { key }))).toBe(404);

    const remaining = async () =>
      ((await call(`${gateway.baseUrl}/deployments?limit=100`, { key })).body as { deployments: unknown[] })
        .deployments.length;
    const deadline = Date.now() + 30_000;
    while ((await remaining()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await remaining()).toBe(0);
  }, 60_000);
});
