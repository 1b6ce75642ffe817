import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import * as made from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// Production and rollback over HTTP on DynamoDB Local: targets, the pointer that moves forward by
// itself, promote, rollback and the pause it sets, the history, and who may do what. The signed
// `project.production_changed` event is tested with the other events, in webhooks.test.ts.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

interface Pointer {
  deploymentId: string;
  url: string | null;
  promotedAt: string;
  reason: 'auto' | 'promote' | 'rollback';
}
interface Project {
  id: string;
  production: Pointer | null;
  autoPromotion: boolean;
}
interface Deployment {
  id: string;
  status: string;
  target: 'production' | 'preview';
  branch: string;
}
interface Move {
  deploymentId: string;
  previousDeploymentId: string | null;
  reason: string;
  at: string;
  keyId: string | null;
}

const url = (path: string) => `${gateway.baseUrl}${path}`;
/** Each move as [to, from, why]. */
const steps = (moves: Move[]) =>
  moves.map(({ deploymentId, previousDeploymentId, reason }) => [deploymentId, previousDeploymentId, reason]);
const newProject = (key: string) => made.newProject<Project>(gateway.baseUrl, key);
const keyWith = (key: string, scopes: string[]) => made.keyWith(gateway.baseUrl, key, scopes);

async function deploy(key: string, json: Record<string, unknown>): Promise<Deployment> {
  const response = await call(url('/deployments'), { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return response.body as Deployment;
}

const report = (key: string, id: string, json: Record<string, unknown>) =>
  call(url(`/deployments/${id}/events`), { method: 'POST', key, json });

async function building(key: string, projectId: string, branch = 'main'): Promise<Deployment> {
  const deployment = await deploy(key, { projectId, branch });
  expect((await report(key, deployment.id, { status: 'building' })).status).toBe(200);
  return deployment;
}

async function ready(key: string, deployment: Deployment): Promise<void> {
  const response = await report(key, deployment.id, {
    status: 'ready',
    url: `https://${deployment.id.slice(-8).toLowerCase()}.example.app`,
  });
  expect(response.status).toBe(200);
}

async function readyDeployment(key: string, projectId: string, branch = 'main'): Promise<Deployment> {
  const deployment = await building(key, projectId, branch);
  await ready(key, deployment);
  return deployment;
}

const projectOf = async (key: string, id: string) =>
  (await call(url(`/projects/${id}`), { key })).body as Project;

const promote = (key: string, projectId: string, deploymentId: string) =>
  call(url(`/projects/${projectId}/promote`), { method: 'POST', key, json: { deploymentId } });

const rollback = (key: string, projectId: string, json: Record<string, unknown> = {}) =>
  call(url(`/projects/${projectId}/rollback`), { method: 'POST', key, json });

async function history(key: string, projectId: string): Promise<Move[]> {
  const response = await call(url(`/projects/${projectId}/production-history`), { key });
  expect(response.status).toBe(200);
  return (response.body as { moves: Move[] }).moves;
}

describe('targets', () => {
  it('are production on the production branch and preview elsewhere, unless the request names one', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const onMain = await deploy(key, { projectId: project.id });
    const onFeature = await deploy(key, { projectId: project.id, branch: 'feature/x' });
    const candidate = await deploy(key, { projectId: project.id, branch: 'rc-1', target: 'production' });
    const previewOfMain = await deploy(key, { projectId: project.id, target: 'preview' });
    expect([onMain, onFeature, candidate, previewOfMain].map((d) => d.target)).toEqual([
      'production',
      'preview',
      'production',
      'preview',
    ]);
    const redeploy = await deploy(key, { redeployOf: candidate.id });
    expect(redeploy).toMatchObject({ branch: 'rc-1', target: 'production' });
    const refused = await call(url('/deployments'), {
      method: 'POST',
      key,
      json: { redeployOf: candidate.id, target: 'preview' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'validation_error', field: 'target' });
    const bad = await call(url('/deployments'), {
      method: 'POST',
      key,
      json: { projectId: project.id, target: 'prod' },
    });
    expect(bad.body).toMatchObject({ error: 'validation_error', field: 'target' });
  });

  it('filter both lists, in full pages', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const made: Deployment[] = [];
    for (let i = 0; i < 7; i++)
      made.push(await deploy(key, { projectId: project.id, branch: i % 2 ? 'main' : `f${i}` }));
    const production = made
      .filter((d) => d.target === 'production')
      .map((d) => d.id)
      .reverse();
    const preview = made
      .filter((d) => d.target === 'preview')
      .map((d) => d.id)
      .reverse();
    for (const list of [`/projects/${project.id}/deployments?`, `/deployments?projectId=${project.id}&`]) {
      const first = await call(url(`${list}target=production&limit=2`), { key });
      expect(first.status).toBe(200);
      const page = first.body as { deployments: Deployment[]; nextCursor: string | null };
      expect(page.deployments.map((d) => d.id)).toEqual(production.slice(0, 2));
      expect(page.nextCursor).not.toBeNull();
      const previews = (await call(url(`${list}target=preview&limit=10`), { key })).body as {
        deployments: Deployment[];
      };
      expect(previews.deployments.map((d) => d.id)).toEqual(preview);
    }
  });
});

describe('automatic promotion', () => {
  it('makes a production deployment production when it becomes ready, and leaves previews alone', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    expect(project).toMatchObject({ production: null, autoPromotion: true });
    const preview = await readyDeployment(key, project.id, 'feature/a');
    expect((await projectOf(key, project.id)).production).toBeNull();
    const first = await building(key, project.id);
    expect((await projectOf(key, project.id)).production).toBeNull();
    await ready(key, first);
    const after = await projectOf(key, project.id);
    expect(after.production).toMatchObject({
      deploymentId: first.id,
      url: `https://${first.id.slice(-8).toLowerCase()}.example.app`,
      reason: 'auto',
    });
    expect(await history(key, project.id)).toEqual([
      {
        deploymentId: first.id,
        previousDeploymentId: null,
        reason: 'auto',
        at: after.production?.promotedAt,
        keyId: null,
      },
    ]);
    expect(preview.id).not.toBe(after.production?.deploymentId);
    // Production is terminal: it cannot be canceled.
    const cancel = await call(url(`/deployments/${first.id}/cancel`), { method: 'POST', key });
    expect(cancel.status).toBe(409);
  });

  it('never lets an older build that finishes late replace a newer production', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const older = await building(key, project.id);
    const newer = await building(key, project.id);
    await ready(key, newer);
    await ready(key, older);
    expect((await projectOf(key, project.id)).production?.deploymentId).toBe(newer.id);
    expect((await history(key, project.id)).map((move) => move.deploymentId)).toEqual([newer.id]);
  });

  it('has exactly one outcome, the newer, when two become ready at the same instant', async () => {
    const { key } = await newCaller();
    for (let round = 0; round < 6; round++) {
      const project = await newProject(key);
      const older = await building(key, project.id);
      const newer = await building(key, project.id);
      const answers = await Promise.all(
        (round % 2 ? [older, newer] : [newer, older]).map((d) =>
          report(key, d.id, { status: 'ready', url: 'https://x.example.app' }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect((await projectOf(key, project.id)).production?.deploymentId).toBe(newer.id);
      const moves = await history(key, project.id);
      // Either the older won first and the newer replaced it, or the newer alone: never a move back.
      expect(moves[0]).toMatchObject({ deploymentId: newer.id, reason: 'auto' });
      expect(moves.map((move) => move.deploymentId)).toEqual(
        moves.length === 1 ? [newer.id] : [newer.id, older.id],
      );
      if (moves.length === 2) expect(moves[0]?.previousDeploymentId).toBe(older.id);
    }
  });
});

describe('POST /projects/{id}/promote', () => {
  it('promotes a ready preview, records who, and answers 200 without a move for the current one', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const main = await readyDeployment(key, project.id);
    const preview = await readyDeployment(key, project.id, 'feature/b');
    const promoted = await promote(key, project.id, preview.id);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({
      id: project.id,
      autoPromotion: true,
      production: { deploymentId: preview.id, reason: 'promote' },
    });
    expect(await projectOf(key, project.id)).toEqual(promoted.body);
    const again = await promote(key, project.id, preview.id);
    expect(again.status).toBe(200);
    const moves = await history(key, project.id);
    expect(steps(moves)).toEqual([
      [preview.id, main.id, 'promote'],
      [main.id, null, 'auto'],
    ]);
    const keys = (await call(url('/keys'), { key })).body as { keys: { id: string }[] };
    expect(keys.keys.map((k) => k.id)).toContain(moves[0]?.keyId);
  });

  it('refuses a deployment that is not ready (409 naming its status) and others’ (404)', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const queued = await deploy(key, { projectId: project.id });
    const refused = await promote(key, project.id, queued.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict' });
    expect((refused.body as { message: string }).message).toContain('queued');
    const otherProject = await newProject(key);
    const elsewhere = await readyDeployment(key, otherProject.id);
    expect((await promote(key, project.id, elsewhere.id)).status).toBe(404);
    for (const id of ['dpl_nope', 'x'.repeat(64)])
      expect((await promote(key, project.id, id)).status).toBe(404);
    expect((await projectOf(key, project.id)).production).toBeNull();
  });
});

describe('POST /projects/{id}/rollback', () => {
  it('walks back one production deployment at a time, then answers 409', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const [a, b, c] = [
      await readyDeployment(key, project.id),
      await readyDeployment(key, project.id),
      await readyDeployment(key, project.id),
    ];
    expect((await projectOf(key, project.id)).production?.deploymentId).toBe(c?.id);
    const toB = await rollback(key, project.id);
    expect(toB.status).toBe(200);
    expect(toB.body).toMatchObject({
      autoPromotion: false,
      production: { deploymentId: b?.id, reason: 'rollback' },
    });
    const toA = await rollback(key, project.id);
    expect(toA.body).toMatchObject({ production: { deploymentId: a?.id, reason: 'rollback' } });
    const none = await rollback(key, project.id);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'conflict' });
    const moves = await history(key, project.id);
    expect(steps(moves)).toEqual([
      [a?.id, b?.id, 'rollback'],
      [b?.id, c?.id, 'rollback'],
      [c?.id, b?.id, 'auto'],
      [b?.id, a?.id, 'auto'],
      [a?.id, null, 'auto'],
    ]);
    // Newest first by time too, and pages walk it.
    const times = moves.map((move) => Date.parse(move.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const walked = await walkPages<Move>(url(`/projects/${project.id}/production-history`), key, 'moves', 2);
    expect(walked).toEqual({ items: moves, pages: 3 });
  });

  it('takes an Idempotency-Key: a retried rollback answers the same and moves once', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const a = await readyDeployment(key, project.id);
    await readyDeployment(key, project.id);
    await readyDeployment(key, project.id);
    const retried = () =>
      call(url(`/projects/${project.id}/rollback`), {
        method: 'POST',
        key,
        json: {},
        headers: { 'Idempotency-Key': `rollback-${project.id}` },
      });
    const first = await retried();
    const second = await retried();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await history(key, project.id)).filter((move) => move.reason === 'rollback')).toHaveLength(1);
    expect((await projectOf(key, project.id)).production?.deploymentId).not.toBe(a.id);
  });

  it('goes to a named deployment that was production, and refuses one that never was or is current', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const a = await readyDeployment(key, project.id);
    await readyDeployment(key, project.id);
    const c = await readyDeployment(key, project.id);
    const preview = await readyDeployment(key, project.id, 'feature/c');
    const never = await rollback(key, project.id, { deploymentId: preview.id });
    expect(never.status).toBe(409);
    const current = await rollback(key, project.id, { deploymentId: c.id });
    expect(current.status).toBe(409);
    const toA = await rollback(key, project.id, { deploymentId: a.id });
    expect(toA.status).toBe(200);
    expect(toA.body).toMatchObject({ production: { deploymentId: a.id, reason: 'rollback' } });
    // A was the first production deployment: nothing before it.
    expect((await rollback(key, project.id)).status).toBe(409);
    const empty = await newProject(key);
    expect((await rollback(key, empty.id)).status).toBe(409);
  });

  it('pauses automatic promotion until the next promote, which resumes it for later builds', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const a = await readyDeployment(key, project.id);
    const inFlight = await building(key, project.id);
    const b = await readyDeployment(key, project.id);
    expect((await rollback(key, project.id)).body).toMatchObject({ production: { deploymentId: a.id } });
    await ready(key, inFlight);
    const later = await readyDeployment(key, project.id);
    expect(await projectOf(key, project.id)).toMatchObject({
      autoPromotion: false,
      production: { deploymentId: a.id },
    });
    const resumed = await promote(key, project.id, b.id);
    expect(resumed.body).toMatchObject({
      autoPromotion: true,
      production: { deploymentId: b.id, reason: 'promote' },
    });
    // Not after the fact: `later` is ready and newer, yet stays where it is until a newer build.
    expect((await projectOf(key, project.id)).production?.deploymentId).toBe(b.id);
    expect(later.id > b.id).toBe(true);
    const next = await readyDeployment(key, project.id);
    expect((await projectOf(key, project.id)).production).toMatchObject({
      deploymentId: next.id,
      reason: 'auto',
    });
  });
});

describe('who may move production', () => {
  it("answers 404 for another user's project on every route, and leaves it as it was", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const project = await newProject(owner.key);
    const a = await readyDeployment(owner.key, project.id);
    const before = await projectOf(owner.key, project.id);
    expect((await promote(stranger.key, project.id, a.id)).status).toBe(404);
    expect((await rollback(stranger.key, project.id)).status).toBe(404);
    expect(
      (await call(url(`/projects/${project.id}/production-history`), { key: stranger.key })).status,
    ).toBe(404);
    // Their own project, the owner's deployment: still 404.
    const theirs = await newProject(stranger.key);
    expect((await promote(stranger.key, theirs.id, a.id)).status).toBe(404);
    expect(await projectOf(owner.key, project.id)).toEqual(before);
  });

  it('needs `write`: read and build keys are refused (403), a read key sees the history', async () => {
    const { key } = await newCaller();
    const project = await newProject(key);
    const a = await readyDeployment(key, project.id);
    await readyDeployment(key, project.id);
    for (const scopes of [['read'], ['build']]) {
      const limited = await keyWith(key, scopes);
      const promoted = await promote(limited, project.id, a.id);
      expect(promoted.status).toBe(403);
      expect(promoted.body).toMatchObject({ error: 'forbidden' });
      expect((await rollback(limited, project.id)).status).toBe(403);
    }
    const reader = await keyWith(key, ['read']);
    expect(await history(reader, project.id)).toHaveLength(2);
    expect((await history(key, project.id)).map((move) => move.reason)).toEqual(['auto', 'auto']);
  });
});

it("removes a project's production history with the project", async () => {
  const { key } = await newCaller();
  const project = await newProject(key);
  await readyDeployment(key, project.id);
  await readyDeployment(key, project.id);
  expect(await history(key, project.id)).toHaveLength(2);
  expect((await call(url(`/projects/${project.id}`), { method: 'DELETE', key })).status).toBe(204);
  expect((await call(url(`/projects/${project.id}/production-history`), { key })).status).toBe(404);
  const left = await db.send(
    new QueryCommand({
      TableName: tableName('environment'),
      KeyConditionExpression: 'projectId = :project',
      ExpressionAttributeValues: { ':project': project.id },
    }),
  );
  expect(left.Items).toEqual([]);
});
