import { FILTER_WINDOW } from '#shared/db/deployments/lists.ts';
import { tableName } from '#shared/db/tables.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { type MeteredCall, meterCapacity } from '../support/consumed-capacity.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';
import { newCaller } from '../support/users.ts';

// Capacity units as DynamoDB Local reports them (ReturnConsumedCapacity INDEXES on every call):
// what each write rewrites, table and indexes, and that every list is one Query with full pages.

let gateway: TestGateway;
const meter = meterCapacity();
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

// Pinned mid-window: a request that opened a new rate-limit window would make one more write.
const realNow = restoreClockAfterEach();
beforeEach(() => {
  const windowStart = Math.floor(realNow() / 60_000) * 60_000;
  clock.now = () => windowStart + 30_000;
});

const KEYS = tableName('apiKeys');
const DEPLOYMENTS = tableName('deployments');
const total = (calls: MeteredCall[]) =>
  calls.reduce((sum, metered) => sum + Object.values(metered.units).reduce((a, b) => a + b, 0), 0);

async function metered(request: () => Promise<unknown>): Promise<MeteredCall[]> {
  meter.take();
  await request();
  return meter.take();
}

async function projectOf(key: string): Promise<string> {
  const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
  return (created.body as { id: string }).id;
}

describe('capacity of a keyed request', () => {
  it('admission writes the key item alone, no index: 1 unit; GET /projects/{id} 1.5', async () => {
    const { key } = await newCaller();
    const id = await projectOf(key);
    const calls = await metered(() => call(`${gateway.baseUrl}/projects/${id}`, { key }));
    expect(calls).toEqual([
      { command: 'UpdateItemCommand', units: { [KEYS]: 1 } },
      { command: 'GetItemCommand', units: { [tableName('projects')]: 0.5 } },
    ]);
  });

  it("in a shared team the member's item is read beside the project, strongly: 1 unit more (GET 2.5, POST /deployments 5)", async () => {
    const [owner, developer] = await Promise.all([newPerson('Owner'), newPerson('Dev')]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');
    const created = await call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
      method: 'POST',
      key: owner.key,
      json: { name: 'web' },
    });
    const projectId = (created.body as { id: string }).id;
    const PROJECTS = tableName('projects');
    const TEAMS = tableName('teams');
    const read = await metered(() =>
      call(`${gateway.baseUrl}/projects/${projectId}?teamId=${teamId}`, { key: developer.key }),
    );
    // The project read as in a personal team (eventually consistent), the membership strongly: a
    // role change or a removal holds from the member's next request.
    expect(read).toEqual([
      { command: 'UpdateItemCommand', units: { [KEYS]: 1 } },
      { command: 'BatchGetItemCommand', units: { [PROJECTS]: 0.5, [TEAMS]: 1 } },
    ]);
    const deploy = await metered(() =>
      call(`${gateway.baseUrl}/deployments?teamId=${teamId}`, {
        method: 'POST',
        key: developer.key,
        json: { projectId },
      }),
    );
    expect(deploy).toEqual([
      { command: 'UpdateItemCommand', units: { [KEYS]: 1 } },
      { command: 'BatchGetItemCommand', units: { [PROJECTS]: 1, [TEAMS]: 1 } },
      { command: 'PutItemCommand', units: { [DEPLOYMENTS]: 1, [`${DEPLOYMENTS}/byProject`]: 1 } },
    ]);
  });

  it('a project made in a shared team is one transaction with the check that the team is open; in a personal team one put', async () => {
    const owner = await newPerson('Owner');
    const teamId = await newTeam(gateway.baseUrl, owner);
    const PROJECTS = tableName('projects');
    const TEAMS = tableName('teams');
    const create = (query: string) =>
      metered(() =>
        call(`${gateway.baseUrl}/projects${query}`, {
          method: 'POST',
          key: owner.key,
          json: { name: 'web' },
        }),
      );
    const shared = await create(`?teamId=${teamId}`);
    expect(shared.filter(({ units }) => PROJECTS in units || TEAMS in units)).toEqual([
      { command: 'GetItemCommand', units: { [TEAMS]: 1 } },
      { command: 'TransactWriteItemsCommand', units: { [PROJECTS]: 2, [TEAMS]: 2 } },
    ]);
    const personal = await create('');
    expect(personal.filter(({ units }) => PROJECTS in units || TEAMS in units)).toEqual([
      { command: 'PutItemCommand', units: { [PROJECTS]: 1 } },
    ]);
  });

  it('admission stays 1 unit on a new window and for a key that is listed', async () => {
    const { key } = await newCaller();
    await call(`${gateway.baseUrl}/keys`, { key });
    const now = clock.now();
    clock.now = () => now + 60_000;
    const calls = await metered(() => call(`${gateway.baseUrl}/projects`, { key }));
    // The count in the old window fails its condition (DynamoDB Local reports no units on the error),
    // then the window opens: no index in either.
    const admission = calls.filter((metered) => metered.command === 'UpdateItemCommand');
    expect(admission.map((metered) => metered.units)).toEqual([{}, { [KEYS]: 1 }]);
  });
});

describe("capacity of a deployment's life", () => {
  it("create 4 (one index entry; the project with its variables' head read strongly), building and ready 3 each (that entry rewritten in place): 10", async () => {
    const { key } = await newCaller();
    const projectId = await projectOf(key);
    let id = '';
    const create = await metered(async () => {
      const created = await call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key,
        json: { projectId },
      });
      id = (created.body as { id: string }).id;
    });
    expect(create.at(-1)).toEqual({
      command: 'PutItemCommand',
      units: { [DEPLOYMENTS]: 1, [`${DEPLOYMENTS}/byProject`]: 1 },
    });
    // Admission 1, the project with the copy of its variables' head 1 (consistent: a variable set a
    // moment before is in the build), the deployment and its one index entry 2. No snapshot without
    // variables.
    expect(create.map((step) => step.units)).toEqual([
      { [KEYS]: 1 },
      { [tableName('projects')]: 1 },
      { [DEPLOYMENTS]: 1, [`${DEPLOYMENTS}/byProject`]: 1 },
    ]);
    expect(total(create)).toBe(4);
    const report = (status: string) =>
      metered(() =>
        call(`${gateway.baseUrl}/deployments/${id}/events`, { method: 'POST', key, json: { status } }),
      );
    const building = await report('building');
    const ready = await report('ready');
    const statusChange = {
      command: 'UpdateItemCommand',
      units: { [DEPLOYMENTS]: 1, [`${DEPLOYMENTS}/byProject`]: 1 },
    };
    // Admission and the conditional update alone: nothing is read first.
    expect(building).toEqual([{ command: 'UpdateItemCommand', units: { [KEYS]: 1 } }, statusChange]);
    // A production deployment's `ready` then moves the production pointer, first on the guess of the
    // production it was created over (no read): one transaction (the pointer, the history entry, the
    // rollback marker). DynamoDB Local reports that transaction as 4 units (2 a table); DynamoDB bills
    // 2 a written item in a transaction: 6.
    expect(ready.slice(-2)).toEqual([
      statusChange,
      {
        command: 'TransactWriteItemsCommand',
        units: { [tableName('projects')]: 2, [tableName('environment')]: 2 },
      },
    ]);
    // 14 in all: create 4, building 3, ready 7 (3, and its promotion 4).
    expect(total(create) + total(building) + total(ready)).toBe(10 + 4);
  });

  it('a preview deployment becoming ready moves nothing: its life stays 10', async () => {
    const { key } = await newCaller();
    const projectId = await projectOf(key);
    const metering = async (url: string, json: Record<string, unknown>) =>
      metered(() => call(`${gateway.baseUrl}${url}`, { method: 'POST', key, json }));
    let id = '';
    const create = await metered(async () => {
      const created = await call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key,
        json: { projectId, branch: 'feature/x' },
      });
      id = (created.body as { id: string }).id;
    });
    const building = await metering(`/deployments/${id}/events`, { status: 'building' });
    const ready = await metering(`/deployments/${id}/events`, { status: 'ready' });
    expect(ready.map((step) => step.command)).not.toContain('TransactWriteItemsCommand');
    expect(total(create) + total(building) + total(ready)).toBe(10);
  });
});

describe('deployment lists: one Query per page, full pages', () => {
  // Nine deployments of one project (and three of another), newest last: statuses and branches mixed.
  const plan = [
    { branch: 'main', status: 'ready' },
    { branch: 'feat', status: 'error' },
    { branch: 'main', status: 'queued' },
    { branch: 'feat', status: 'ready' },
    { branch: 'main', status: 'building' },
    { branch: 'main', status: 'ready' },
    { branch: 'feat', status: 'canceled' },
    { branch: 'main', status: 'error' },
    { branch: 'feat', status: 'ready' },
  ];
  const steps: Record<string, string[]> = {
    queued: [],
    building: ['building'],
    ready: ['building', 'ready'],
    error: ['building', 'error'],
    canceled: ['canceled'],
  };
  let key = '';
  let projectId = '';
  let made: { id: string; projectId: string; branch: string; status: string }[] = [];

  beforeAll(async () => {
    ({ key } = await newCaller());
    projectId = await projectOf(key);
    const otherProject = await projectOf(key);
    made = [];
    for (const [index, { branch, status }] of plan.entries()) {
      const project = index % 3 === 2 ? otherProject : projectId;
      const created = await call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key,
        json: { projectId: project, branch },
      });
      const { id } = created.body as { id: string };
      for (const step of steps[status] ?? []) {
        const path = step === 'canceled' ? `/deployments/${id}/cancel` : `/deployments/${id}/events`;
        await call(`${gateway.baseUrl}${path}`, {
          method: 'POST',
          key,
          ...(step === 'canceled' ? {} : { json: { status: step } }),
        });
      }
      made.push({ id, projectId: project, branch, status });
    }
  });

  const filters: [string, (query: URLSearchParams) => string, (d: (typeof made)[number]) => boolean][] = [
    ['all of the owner', () => '/deployments', () => true],
    ['one project', () => `/projects/${projectId}/deployments`, (d) => d.projectId === projectId],
    ['projectId', () => `/deployments?projectId=${projectId}`, (d) => d.projectId === projectId],
    ['status', () => '/deployments?status=ready', (d) => d.status === 'ready'],
    [
      'several statuses',
      () => '/deployments?status=ready,error',
      (d) => ['ready', 'error'].includes(d.status),
    ],
    ['branch', () => '/deployments?branch=feat', (d) => d.branch === 'feat'],
    [
      'status and branch',
      () => '/deployments?status=ready&branch=main',
      (d) => d.status === 'ready' && d.branch === 'main',
    ],
    [
      'unfinished statuses',
      () => '/deployments?status=queued,building',
      (d) => ['queued', 'building'].includes(d.status),
    ],
    [
      "a project's, by status",
      () => `/projects/${projectId}/deployments?status=ready,canceled`,
      (d) => d.projectId === projectId && ['ready', 'canceled'].includes(d.status),
    ],
    [
      "a project's, by branch",
      () => `/projects/${projectId}/deployments?branch=main`,
      (d) => d.projectId === projectId && d.branch === 'main',
    ],
    [
      "a project's, by status and branch",
      () => `/deployments?projectId=${projectId}&status=ready,error&branch=feat`,
      (d) => d.projectId === projectId && d.branch === 'feat' && ['ready', 'error'].includes(d.status),
    ],
  ];

  it.each(filters)('%s: every page one Query, full until the last', async (_, pathOf, matches) => {
    const expected = made
      .filter(matches)
      .map((d) => d.id)
      .reverse();
    expect(expected.length).toBeGreaterThan(0);
    const limit = 2;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path = pathOf(new URLSearchParams());
      const url: string = `${gateway.baseUrl}${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      let body = { deployments: [] as { id: string }[], nextCursor: null as string | null };
      const calls = await metered(async () => {
        body = (await call(url, { key })).body as typeof body;
      });
      expect(calls.filter((metered) => metered.command === 'QueryCommand')).toHaveLength(1);
      seen.push(...body.deployments.map((d) => d.id));
      // Full pages: only the last may hold fewer than the limit.
      if (body.nextCursor !== null) expect(body.deployments).toHaveLength(limit);
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected);
  });

  it('a filter rarer than one in ten of the window never ends a list early or skips a deployment', async () => {
    const { key: own } = await newCaller();
    const project = await projectOf(own);
    const deploy = (branch: string) =>
      call(`${gateway.baseUrl}/deployments`, {
        method: 'POST',
        key: own,
        json: { projectId: project, branch },
      });
    const rare = (await deploy('rare')).body as { id: string };
    // One page of one row reads a window of FILTER_WINDOW(1) deployments; the rare one is past it.
    for (let i = 0; i < FILTER_WINDOW(1); i++) await deploy('common');
    const first = await call(`${gateway.baseUrl}/deployments?branch=rare&limit=1`, { key: own });
    const page = first.body as { deployments: { id: string }[]; nextCursor: string | null };
    expect(page.deployments).toEqual([]);
    expect(page.nextCursor).not.toBeNull();
    const second = await call(
      `${gateway.baseUrl}/deployments?branch=rare&limit=1&cursor=${encodeURIComponent(page.nextCursor ?? '')}`,
      { key: own },
    );
    expect(second.body).toMatchObject({ deployments: [{ id: rare.id }], nextCursor: null });
  });
});
