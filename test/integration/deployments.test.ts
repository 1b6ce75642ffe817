import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import { newCaller } from '../support/users.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const DEPLOYMENT_ID = /^dpl_[0-9A-HJKMNP-TV-Z]{26}$/;

async function newProject(key: string, json: Record<string, unknown> = { name: 'web' }): Promise<string> {
  const response = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

const deploy = (key: string, json: unknown) =>
  call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json });

describe('POST /deployments', () => {
  it('queues a deployment of the given branch: 201, Location and the deployment', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const response = await deploy(key, { projectId, branch: 'feature/login' });
    expect(response.status).toBe(201);
    const body = response.body as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.stringMatching(DEPLOYMENT_ID),
      projectId,
      branch: 'feature/login',
      status: 'queued',
      target: 'preview',
      createdAt: expect.any(String),
      updatedAt: body.createdAt,
    });
    expect(response.headers.get('location')).toBe(`/v1/deployments/${body.id}`);
  });

  it("deploys the project's production branch when no branch is given", async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key, { name: 'docs', productionBranch: 'trunk' });
    expect((await deploy(key, { projectId })).body).toMatchObject({ branch: 'trunk' });
  });

  it('names projectId when it is missing', async () => {
    const { key } = await newCaller();
    const response = await deploy(key, { branch: 'main' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'validation_error',
      message: 'projectId is required',
      field: 'projectId',
    });
  });

  it.each([
    [{ projectId: 7 }, 'projectId', 'projectId must be a string'],
    [{ projectId: '' }, 'projectId', 'projectId must not be empty'],
    [{ projectId: null }, 'projectId', 'projectId must be a string'],
    [{ projectId: 'prj_x', branch: 3 }, 'branch', 'branch must be a string'],
    [{ projectId: 'prj_x', commit: 'abc' }, 'commit', 'commit is not a known field'],
  ])('rejects %j with 400 naming %s', async (json, field, message) => {
    const { key } = await newCaller();
    const response = await deploy(key, json);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'validation_error', message, field });
  });

  it.each([
    ['-leading-dash'],
    ['has space'],
    ['double..dot'],
    ['ends/'],
    ['ends.lock'],
    ['.hidden'],
    ['a/.b'],
    ['tilde~1'],
    ['caret^'],
    ['colon:'],
    ['question?'],
    ['star*'],
    ['bracket['],
    ['back\\slash'],
    ['at@{brace'],
    ['@'],
    ['trailing.'],
    ['double//slash'],
    ['x'.repeat(256)],
    [''],
  ])('rejects the branch %j with 400 naming branch', async (branch) => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const response = await deploy(key, { projectId, branch });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'validation_error',
      message: 'branch must be a valid git branch name of at most 255 characters',
      field: 'branch',
    });
  });

  it("answers an unknown project and another user's project with the same 404, writing nothing", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const projectId = await newProject(owner.key);
    const foreign = await deploy(stranger.key, { projectId });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'not_found', message: `Project ${projectId} was not found` });
    expect((await deploy(stranger.key, { projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A' })).status).toBe(404);
    const list = await call(`${gateway.baseUrl}/projects/${projectId}/deployments`, { key: owner.key });
    expect(list.body).toEqual({ deployments: [], nextCursor: null });
  });
});

describe('GET /deployments/{id}', () => {
  it("returns the caller's deployment and 404 for anyone else", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const projectId = await newProject(owner.key);
    const created = await deploy(owner.key, { projectId });
    const id = (created.body as { id: string }).id;
    expect((await call(`${gateway.baseUrl}/deployments/${id}`, { key: owner.key })).body).toEqual(
      created.body,
    );
    const foreign = await call(`${gateway.baseUrl}/deployments/${id}`, { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'not_found', message: `Deployment ${id} was not found` });
  });
});

describe('GET /projects/{id}/deployments', () => {
  it("lists one project's deployments newest first, page by page", async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const otherProject = await newProject(key, { name: 'other' });
    await deploy(key, { projectId: otherProject });
    const branches = ['b1', 'b2', 'b3', 'b4', 'b5'];
    for (const branch of branches) await deploy(key, { projectId, branch });

    const { items } = await walkPages<{ branch: string; projectId: string }>(
      `${gateway.baseUrl}/projects/${projectId}/deployments`,
      key,
      'deployments',
      2,
    );
    expect(items.every((deployment) => deployment.projectId === projectId)).toBe(true);
    expect(items.map((deployment) => deployment.branch)).toEqual([...branches].reverse());
  });

  it("answers another user's project with 404", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const projectId = await newProject(owner.key);
    await deploy(owner.key, { projectId });
    const response = await call(`${gateway.baseUrl}/projects/${projectId}/deployments`, {
      key: stranger.key,
    });
    expect(response.status).toBe(404);
  });

  it("rejects a cursor from another project's list", async () => {
    const { key } = await newCaller();
    const first = await newProject(key);
    const second = await newProject(key);
    for (const projectId of [first, first, second]) await deploy(key, { projectId });
    const page = (await call(`${gateway.baseUrl}/projects/${first}/deployments?limit=1`, { key })).body as {
      nextCursor: string;
    };
    const response = await call(
      `${gateway.baseUrl}/projects/${second}/deployments?cursor=${encodeURIComponent(page.nextCursor)}`,
      { key },
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field: 'cursor' });
  });
});
