import {
  DEPLOYMENT_STATES,
  type DeploymentState,
  REPORTABLE_STATES,
  TRANSITIONS,
} from '#shared/model/deployments/states.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import { newCaller } from '../support/users.ts';

// The lifecycle through the API on DynamoDB Local: transitions, their races, cancel, redeploy, the
// history, the filtered lists and who may see what.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

interface Deployment {
  id: string;
  projectId: string;
  branch: string;
  status: DeploymentState;
  [field: string]: unknown;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function newProject(key: string, name = 'web'): Promise<string> {
  const response = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name } });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

async function deploy(key: string, json: Record<string, unknown>): Promise<Deployment> {
  const response = await call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return response.body as Deployment;
}

const report = (key: string, id: string, json: Record<string, unknown>) =>
  call(`${gateway.baseUrl}/deployments/${id}/events`, { method: 'POST', key, json });

const cancel = (key: string, id: string) =>
  call(`${gateway.baseUrl}/deployments/${id}/cancel`, { method: 'POST', key });

const eventsOf = async (key: string, id: string) =>
  (await call(`${gateway.baseUrl}/deployments/${id}/events`, { key })).body as {
    events: { status: string; at: string; [field: string]: unknown }[];
  };

/** The legal path from `queued` to each state. */
const PATH_TO: Record<DeploymentState, DeploymentState[]> = {
  queued: [],
  building: ['building'],
  ready: ['building', 'ready'],
  error: ['building', 'error'],
  canceled: ['canceled'],
};

async function deploymentIn(
  key: string,
  projectId: string,
  state: DeploymentState,
  branch = 'main',
): Promise<Deployment> {
  const deployment = await deploy(key, { projectId, branch });
  for (const status of PATH_TO[state])
    expect((await report(key, deployment.id, { status })).status).toBe(200);
  return deployment;
}

describe('POST /deployments/{id}/events', () => {
  it('moves a deployment queued → building → ready, recording each step, its url and commit', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const created = await deploy(key, { projectId, branch: 'main' });
    const building = await report(key, created.id, {
      status: 'building',
      commitSha: '9fceb02',
      message: 'npm ci',
    });
    expect(building.status).toBe(200);
    expect(building.body).toEqual({
      ...created,
      status: 'building',
      buildingAt: expect.stringMatching(ISO),
      commitSha: '9fceb02',
      updatedAt: expect.stringMatching(ISO),
    });
    const ready = await report(key, created.id, { status: 'ready', url: 'https://web-1.example.app' });
    const body = ready.body as Deployment;
    expect(body).toEqual({
      ...(building.body as Deployment),
      status: 'ready',
      readyAt: expect.stringMatching(ISO),
      url: 'https://web-1.example.app',
      updatedAt: body.readyAt,
    });
    expect((await call(`${gateway.baseUrl}/deployments/${created.id}`, { key })).body).toEqual(body);
    expect(await eventsOf(key, created.id)).toEqual({
      events: [
        { status: 'queued', at: created.createdAt },
        { status: 'building', at: body.buildingAt, commitSha: '9fceb02', message: 'npm ci' },
        { status: 'ready', at: body.readyAt, url: 'https://web-1.example.app' },
      ],
    });
  });

  it("records an error's message and time", async () => {
    const { key } = await newCaller();
    const { id } = await deploymentIn(key, await newProject(key), 'building');
    const failed = await report(key, id, { status: 'error', message: 'build failed: exit 1' });
    expect(failed.body).toMatchObject({
      status: 'error',
      errorMessage: 'build failed: exit 1',
      erroredAt: expect.stringMatching(ISO),
    });
    expect((await eventsOf(key, id)).events.map((event) => event.status)).toEqual([
      'queued',
      'building',
      'error',
    ]);
  });

  const cases = DEPLOYMENT_STATES.flatMap((from) =>
    REPORTABLE_STATES.map((to) => [from, to, (TRANSITIONS[from] as readonly string[]).includes(to)] as const),
  );
  it.each(cases)('from %s, a report of %s is legal: %s', async (from, to, legal) => {
    const { key } = await newCaller();
    const { id } = await deploymentIn(key, await newProject(key), from);
    const response = await report(key, id, { status: to });
    if (legal) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id, status: to });
    } else {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'conflict',
        message: `Deployment ${id} is ${from}; it cannot become ${to}`,
      });
      expect((await call(`${gateway.baseUrl}/deployments/${id}`, { key })).body).toMatchObject({
        status: from,
      });
      expect((await eventsOf(key, id)).events).toHaveLength(PATH_TO[from].length + 1);
    }
  });

  it.each([
    [{ status: 'queued' }, 'status'],
    [{ status: 'done' }, 'status'],
    [{}, 'status'],
    [{ status: 'ready', url: 'http://insecure.example.app' }, 'url'],
    [{ status: 'ready', url: `https://example.app/${'a'.repeat(2040)}` }, 'url'],
    [{ status: 'ready', url: 'not a url' }, 'url'],
    [{ status: 'building', commitSha: 'xyz1234' }, 'commitSha'],
    [{ status: 'building', commitSha: 'abc12' }, 'commitSha'],
    [{ status: 'building', commitSha: 'a'.repeat(41) }, 'commitSha'],
    [{ status: 'error', message: 'm'.repeat(1001) }, 'message'],
    [{ status: 'building', extra: 1 }, 'extra'],
  ])('rejects the report %j with 400 naming %s', async (json, field) => {
    const { key } = await newCaller();
    const { id } = await deploy(key, { projectId: await newProject(key) });
    const response = await report(key, id, json);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
  });

  it('lets exactly one of 50 conflicting reports win each step, leaving one event per step', async () => {
    const { key } = await newCaller({ rateLimit: 1000 });
    const { id } = await deploy(key, { projectId: await newProject(key) });
    const race = async (statuses: string[]) => {
      const responses = await Promise.all(statuses.map((status) => report(key, id, { status })));
      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      expect(responses.filter((response) => response.status === 409)).toHaveLength(statuses.length - 1);
      return ((winners[0]?.body ?? {}) as Deployment).status;
    };
    // Every report of a step competes for the same move: 50 × building, then 50 terminal reports.
    const first = await race(Array.from({ length: 50 }, () => 'building'));
    const second = await race(
      Array.from({ length: 50 }, (_, i) => ['ready', 'error', 'canceled'][i % 3] ?? 'ready'),
    );
    const { events } = await eventsOf(key, id);
    expect(first).toBe('building');
    expect(events.map((event) => event.status)).toEqual(['queued', 'building', second]);
    const final = (await call(`${gateway.baseUrl}/deployments/${id}`, { key })).body as Deployment;
    expect(final.status).toBe(second);
    expect(events.at(-1)?.at).toBe(final.updatedAt);
  });
});

describe('POST /deployments/{id}/cancel', () => {
  it.each(['queued', 'building'] as const)('cancels a %s deployment: 200 with canceledAt', async (from) => {
    const { key } = await newCaller();
    const { id } = await deploymentIn(key, await newProject(key), from);
    const response = await cancel(key, id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, status: 'canceled', canceledAt: expect.stringMatching(ISO) });
    expect((await eventsOf(key, id)).events.at(-1)).toEqual({
      status: 'canceled',
      at: (response.body as Deployment).canceledAt,
    });
  });

  it.each(['ready', 'error', 'canceled'] as const)(
    'answers 409 naming the status once it is %s',
    async (state) => {
      const { key } = await newCaller();
      const { id } = await deploymentIn(key, await newProject(key), state);
      const response = await cancel(key, id);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'conflict',
        message: `Deployment ${id} is ${state}; it cannot become canceled`,
      });
    },
  );
});

describe('POST /deployments {redeployOf}', () => {
  it('deploys the same project, branch and commit again as a new queued deployment', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const original = await deploy(key, { projectId, branch: 'release/1' });
    await report(key, original.id, { status: 'building', commitSha: 'deadbeefcafe' });
    await report(key, original.id, { status: 'ready', url: 'https://web-2.example.app' });
    const response = await call(`${gateway.baseUrl}/deployments`, {
      method: 'POST',
      key,
      json: { redeployOf: original.id },
    });
    expect(response.status).toBe(201);
    const body = response.body as Deployment;
    expect(body).toEqual({
      id: expect.stringMatching(/^dpl_/),
      projectId,
      branch: 'release/1',
      status: 'queued',
      // Its original's: release/1 is not the production branch.
      target: 'preview',
      commitSha: 'deadbeefcafe',
      redeployOf: original.id,
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
    });
    expect(body.id).not.toBe(original.id);
    expect(response.headers.get('location')).toBe(`/v1/deployments/${body.id}`);
    expect((await eventsOf(key, body.id)).events).toEqual([
      { status: 'queued', at: body.createdAt, commitSha: 'deadbeefcafe' },
    ]);
  });

  it.each([
    [{ redeployOf: 'dpl_x', projectId: 'prj_x' }, 'projectId', 'projectId cannot be given with redeployOf'],
    [{ redeployOf: 'dpl_x', branch: 'main' }, 'branch', 'branch cannot be given with redeployOf'],
    [{ redeployOf: '' }, 'redeployOf', 'redeployOf must not be empty'],
    [{}, 'projectId', 'projectId is required'],
  ])('rejects %j with 400 naming %s', async (json, field, message) => {
    const { key } = await newCaller();
    const response = await call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'validation_error', message, field });
  });
});

describe('who may see and move a deployment', () => {
  it("answers every new route on another user's deployment or project with 404, changing nothing", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const projectId = await newProject(owner.key);
    const { id } = await deploy(owner.key, { projectId });
    const notFound = { error: 'not_found', message: `Deployment ${id} was not found` };
    for (const response of [
      await report(stranger.key, id, { status: 'building' }),
      await cancel(stranger.key, id),
      await call(`${gateway.baseUrl}/deployments/${id}/events`, { key: stranger.key }),
      await call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key: stranger.key,
        json: { redeployOf: id },
      }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound);
    }
    const foreignList = await call(`${gateway.baseUrl}/deployments?projectId=${projectId}`, {
      key: stranger.key,
    });
    expect(foreignList.status).toBe(404);
    expect(foreignList.body).toEqual({ error: 'not_found', message: `Project ${projectId} was not found` });
    expect((await call(`${gateway.baseUrl}/deployments`, { key: stranger.key })).body).toEqual({
      deployments: [],
      nextCursor: null,
    });
    expect((await eventsOf(owner.key, id)).events).toHaveLength(1);
  });

  it('answers unknown and malformed ids with 404', async () => {
    const { key } = await newCaller();
    for (const id of ['dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M', 'nope']) {
      expect((await report(key, id, { status: 'building' })).status).toBe(404);
      expect((await cancel(key, id)).status).toBe(404);
      expect((await call(`${gateway.baseUrl}/deployments/${id}/events`, { key })).status).toBe(404);
    }
  });
});

describe('filtered lists', () => {
  // 24 deployments per project, few of them matching: a filter that thinned pages out would show here.
  async function fixture() {
    const { key } = await newCaller({ rateLimit: 1000 });
    const web = await newProject(key, 'web');
    const docs = await newProject(key, 'docs');
    const made: Deployment[] = [];
    for (let i = 0; i < 24; i++) {
      for (const projectId of [web, docs]) {
        const branch = i % 4 === 0 ? 'main' : `feature/${i}`;
        const target: DeploymentState = i % 6 === 0 ? 'ready' : i % 6 === 3 ? 'error' : 'queued';
        const deployment = await deploymentIn(key, projectId, target, branch);
        made.push({ ...deployment, status: target, branch });
      }
    }
    return { key, web, docs, made };
  }
  let data: Awaited<ReturnType<typeof fixture>>;
  beforeAll(async () => {
    data = await fixture();
  }, 120_000);

  const newestFirst = (items: Deployment[]) => [...items].sort((a, b) => (a.id < b.id ? 1 : -1));
  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  async function expectFullPages(url: string, expected: Deployment[], limit: number) {
    const { items, pages } = await walkPages<Deployment>(url, data.key, 'deployments', limit);
    expect(ids(items)).toEqual(ids(newestFirst(expected)));
    expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
  }

  it("pages a project's ready and error deployments in full pages, newest first", async () => {
    const expected = data.made.filter(
      (d) => d.projectId === data.web && ['ready', 'error'].includes(d.status),
    );
    expect(expected).toHaveLength(8);
    await expectFullPages(
      `${gateway.baseUrl}/projects/${data.web}/deployments?status=ready,error`,
      expected,
      3,
    );
  });

  it("pages a project's deployments of one branch in one status", async () => {
    const expected = data.made.filter(
      (d) => d.projectId === data.web && d.branch === 'main' && d.status === 'ready',
    );
    expect(expected.length).toBeGreaterThan(1);
    await expectFullPages(
      `${gateway.baseUrl}/projects/${data.web}/deployments?status=ready&branch=main`,
      expected,
      1,
    );
  });

  it("pages all of the caller's deployments by status and branch, across projects", async () => {
    const all = data.made;
    await expectFullPages(`${gateway.baseUrl}/deployments`, all, 20);
    await expectFullPages(
      `${gateway.baseUrl}/deployments?status=error`,
      all.filter((d) => d.status === 'error'),
      3,
    );
    await expectFullPages(
      `${gateway.baseUrl}/deployments?branch=main`,
      all.filter((d) => d.branch === 'main'),
      5,
    );
    await expectFullPages(
      `${gateway.baseUrl}/deployments?status=queued,ready&branch=main`,
      all.filter((d) => d.branch === 'main' && ['queued', 'ready'].includes(d.status)),
      4,
    );
    await expectFullPages(
      `${gateway.baseUrl}/deployments?projectId=${data.docs}&status=ready`,
      all.filter((d) => d.projectId === data.docs && d.status === 'ready'),
      2,
    );
  });

  it('moves a deployment between status lists when its status changes', async () => {
    const queued = data.made.find((d) => d.projectId === data.docs && d.status === 'queued');
    if (!queued) throw new Error('fixture has a queued deployment');
    await cancel(data.key, queued.id);
    const canceled = await call(`${gateway.baseUrl}/projects/${data.docs}/deployments?status=canceled`, {
      key: data.key,
    });
    expect(ids((canceled.body as { deployments: Deployment[] }).deployments)).toEqual([queued.id]);
    const stillQueued = await walkPages<Deployment>(
      `${gateway.baseUrl}/deployments?status=queued&projectId=${data.docs}`,
      data.key,
      'deployments',
      50,
    );
    expect(ids(stillQueued.items)).not.toContain(queued.id);
  });

  it.each([
    ['status=done', 'status'],
    ['status=ready,', 'status'],
    ['branch=..', 'branch'],
    ['projectId=', 'projectId'],
  ])('rejects ?%s with 400 naming %s', async (query, field) => {
    const response = await call(`${gateway.baseUrl}/deployments?${query}`, { key: data.key });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
  });

  it('rejects a cursor of the same list with other filters', async () => {
    const first = await call(`${gateway.baseUrl}/deployments?status=queued&limit=1`, { key: data.key });
    const { nextCursor } = first.body as { nextCursor: string };
    const response = await call(
      `${gateway.baseUrl}/deployments?status=error&limit=1&cursor=${encodeURIComponent(nextCursor)}`,
      { key: data.key },
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field: 'cursor' });
  });
});
