import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { recordCommands } from '../support/dynamodb-commands.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import * as made from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// A project's environment variables over HTTP on DynamoDB Local: the routes and their rules
// (targets, overlaps, limits, the atomic replace), who may do what (BOLA, scopes), and what a
// deployment builds with (its snapshot, read by a build key while it is unfinished, each read in its
// events).

let gateway: TestGateway;
const commands = recordCommands();
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

interface Variable {
  id: string;
  key: string;
  targets: string[];
  type: 'plain' | 'secret';
  value?: string;
  createdAt: string;
  updatedAt: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ENV_ID = /^env_[0-9A-HJKMNP-TV-Z]{26}$/;

async function newProject(key: string, json: Record<string, unknown> = { name: 'web' }): Promise<string> {
  const response = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

const keyWith = (key: string, scopes: string[]) => made.keyWith(gateway.baseUrl, key, scopes);

const envUrl = (projectId: string) => `${gateway.baseUrl}/projects/${projectId}/env`;

const addVariable = (key: string, projectId: string, json: Record<string, unknown>) =>
  call(envUrl(projectId), { method: 'POST', key, json });

async function added(key: string, projectId: string, json: Record<string, unknown>): Promise<Variable> {
  const response = await addVariable(key, projectId, json);
  expect(response.status).toBe(201);
  return response.body as Variable;
}

async function listAll(key: string, projectId: string): Promise<Variable[]> {
  const response = await call(`${envUrl(projectId)}?limit=100`, { key });
  expect(response.status).toBe(200);
  return (response.body as { variables: Variable[] }).variables;
}

const replace = (key: string, projectId: string, variables: unknown[]) =>
  call(envUrl(projectId), { method: 'PUT', key, json: { variables } });

async function deploy(key: string, json: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const response = await call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return response.body as { id: string; status: string };
}

const buildEnv = (key: string, deploymentId: string) =>
  call(`${gateway.baseUrl}/deployments/${deploymentId}/build-env`, { key });

describe('variables of a project', () => {
  it('creates a plain variable for every target by default, and shows its value', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const response = await addVariable(key, projectId, { key: 'NODE_ENV', value: 'production' });
    expect(response.status).toBe(201);
    const variable = response.body as Variable;
    expect(variable).toEqual({
      id: expect.stringMatching(ENV_ID),
      key: 'NODE_ENV',
      targets: ['production', 'preview', 'development'],
      type: 'plain',
      value: 'production',
      createdAt: expect.stringMatching(ISO),
      updatedAt: variable.createdAt,
    });
    expect(await listAll(key, projectId)).toEqual([variable]);
  });

  it('never shows a secret: no value field in the 201, the list, a PATCH or its replay', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const headers = { 'Idempotency-Key': `secret-${projectId}` };
    const json = { key: 'API_TOKEN', value: 'tok-very-secret-1', type: 'secret', targets: ['production'] };
    const created = await call(envUrl(projectId), { method: 'POST', key, json, headers });
    expect(created.status).toBe(201);
    const variable = created.body as Variable;
    expect(variable).toEqual({
      id: expect.stringMatching(ENV_ID),
      key: 'API_TOKEN',
      targets: ['production'],
      type: 'secret',
      createdAt: expect.stringMatching(ISO),
      updatedAt: variable.createdAt,
    });
    expect('value' in variable).toBe(false);
    const replay = await call(envUrl(projectId), { method: 'POST', key, json, headers });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.text).toBe(created.text);
    expect(await listAll(key, projectId)).toEqual([variable]);
    const patched = await call(`${envUrl(projectId)}/${variable.id}`, {
      method: 'PATCH',
      key,
      json: { value: 'tok-very-secret-2' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...variable, updatedAt: expect.stringMatching(ISO) });
    for (const text of [created.text, replay.text, patched.text])
      expect(text).not.toContain('tok-very-secret');
  });

  it('changes value and targets with PATCH, keeps the type, and deletes with DELETE', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const variable = await added(key, projectId, { key: 'REGION', value: 'eu', targets: ['preview'] });
    const url = `${envUrl(projectId)}/${variable.id}`;
    const retargeted = await call(url, {
      method: 'PATCH',
      key,
      json: { targets: ['development', 'preview', 'preview'] },
    });
    expect(retargeted.status).toBe(200);
    expect(retargeted.body).toEqual({
      ...variable,
      targets: ['preview', 'development'],
      updatedAt: expect.stringMatching(ISO),
    });
    const revalued = await call(url, { method: 'PATCH', key, json: { value: 'us' } });
    expect(revalued.body).toMatchObject({ value: 'us', targets: ['preview', 'development'], type: 'plain' });
    const retyped = await call(url, { method: 'PATCH', key, json: { type: 'secret' } });
    expect(retyped.status).toBe(400);
    expect(retyped.body).toMatchObject({ error: 'validation_error', field: 'type' });
    const empty = await call(url, { method: 'PATCH', key, json: {} });
    expect(empty.status).toBe(400);
    expect((await call(url, { method: 'DELETE', key })).status).toBe(204);
    expect(await listAll(key, projectId)).toEqual([]);
    expect((await call(url, { method: 'DELETE', key })).status).toBe(404);
    expect((await call(url, { method: 'PATCH', key, json: { value: 'x' } })).status).toBe(404);
    expect((await call(`${envUrl(projectId)}/env_nope`, { method: 'DELETE', key })).status).toBe(404);
  });

  it('allows one key several times with disjoint targets, and answers an overlap with 409 naming key and target', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await added(key, projectId, { key: 'DB_URL', value: 'prod-db', targets: ['production'] });
    const preview = await added(key, projectId, {
      key: 'DB_URL',
      value: 'preview-db',
      targets: ['preview', 'development'],
    });
    const overlap = await addVariable(key, projectId, {
      key: 'DB_URL',
      value: 'x',
      targets: ['development', 'production'],
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body).toMatchObject({ error: 'conflict' });
    // It overlaps both: the first shared target is named, with the variable it collides with.
    expect((overlap.body as { message: string }).message).toBe(
      `Variable DB_URL already exists for target development (${preview.id})`,
    );
    const moved = await call(`${envUrl(projectId)}/${preview.id}`, {
      method: 'PATCH',
      key,
      json: { targets: ['production'] },
    });
    expect(moved.status).toBe(409);
    expect((await listAll(key, projectId)).map((variable) => [variable.value, variable.targets])).toEqual([
      ['preview-db', ['preview', 'development']],
      ['prod-db', ['production']],
    ]);
  });

  it('refuses bad keys, values and targets with 400 naming the field', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const cases: [Record<string, unknown>, string][] = [
      [{ key: '1ABC', value: 'x' }, 'key'],
      [{ key: 'A-B', value: 'x' }, 'key'],
      [{ key: '', value: 'x' }, 'key'],
      [{ key: `K${'x'.repeat(256)}`, value: 'x' }, 'key'],
      [{ key: 'A', value: 'x', targets: [] }, 'targets'],
      [{ key: 'A', value: 'x', targets: ['staging'] }, 'targets.0'],
      [{ key: 'A', value: 'x', type: 'hidden' }, 'type'],
      [{ key: 'A' }, 'value'],
      // 8,193 two-byte characters: fewer characters than the limit, more bytes.
      [{ key: 'A', value: 'é'.repeat(8193) }, 'value'],
      [{ key: 'A', value: 'x', extra: 1 }, 'extra'],
    ];
    for (const [json, field] of cases) {
      const response = await addVariable(key, projectId, json);
      expect([response.status, (response.body as { field?: string }).field]).toEqual([400, field]);
    }
    // Exactly 16 KiB in UTF-8 is accepted.
    expect((await addVariable(key, projectId, { key: 'BIG', value: 'é'.repeat(8192) })).status).toBe(201);
  });

  it('pages the list newest first with a signed cursor', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await replace(
      key,
      projectId,
      ['A', 'B', 'C', 'D', 'E'].map((name) => ({ key: name, value: name.toLowerCase() })),
    );
    const first = await call(`${envUrl(projectId)}?limit=2`, { key });
    const page1 = first.body as { variables: Variable[]; nextCursor: string };
    expect(page1.variables.map((variable) => variable.key)).toEqual(['E', 'D']);
    const second = await call(`${envUrl(projectId)}?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`, {
      key,
    });
    const page2 = second.body as { variables: Variable[]; nextCursor: string };
    expect(page2.variables.map((variable) => variable.key)).toEqual(['C', 'B']);
    const third = await call(`${envUrl(projectId)}?limit=2&cursor=${encodeURIComponent(page2.nextCursor)}`, {
      key,
    });
    expect(third.body).toMatchObject({ nextCursor: null });
    expect((third.body as { variables: Variable[] }).variables.map((variable) => variable.key)).toEqual([
      'A',
    ]);
    const tampered = await call(`${envUrl(projectId)}?cursor=${encodeURIComponent(`${page1.nextCursor}x`)}`, {
      key,
    });
    expect(tampered.status).toBe(400);
  });
});

describe('the bulk replace', () => {
  it('replaces the whole set in one step and answers the new set', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await added(key, projectId, { key: 'OLD', value: 'old' });
    const response = await replace(key, projectId, [
      { key: 'A', value: '1', targets: ['production'] },
      { key: 'A', value: '2', targets: ['preview'] },
      { key: 'S', value: 'hidden-value', type: 'secret' },
    ]);
    expect(response.status).toBe(200);
    const { variables } = response.body as { variables: Variable[] };
    expect(variables.map(({ key: name, value, targets, type }) => ({ name, value, targets, type }))).toEqual([
      { name: 'S', value: undefined, targets: ['production', 'preview', 'development'], type: 'secret' },
      { name: 'A', value: '2', targets: ['preview'], type: 'plain' },
      { name: 'A', value: '1', targets: ['production'], type: 'plain' },
    ]);
    expect(response.text).not.toContain('hidden-value');
    expect(await listAll(key, projectId)).toEqual(variables);
    expect((await replace(key, projectId, [])).body).toEqual({ variables: [] });
    expect(await listAll(key, projectId)).toEqual([]);
  });

  it('leaves the old set intact when an item is bad or two items overlap', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const before = [await added(key, projectId, { key: 'KEEP', value: 'kept' })];
    const bad = await replace(key, projectId, [
      { key: 'A', value: '1' },
      { key: 'B', value: '2' },
      { key: 'C', value: '3' },
      { key: '4D', value: '4' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_error', field: 'variables.3.key' });
    expect(await listAll(key, projectId)).toEqual(before);
    const overlapping = await replace(key, projectId, [
      { key: 'A', value: '1', targets: ['production', 'preview'] },
      { key: 'A', value: '2', targets: ['preview'] },
    ]);
    expect(overlapping.status).toBe(409);
    expect((overlapping.body as { message: string }).message).toMatch(/A.*preview/);
    expect(await listAll(key, projectId)).toEqual(before);
  });

  it('is atomic under racing changes: every answer sees one whole set, never a mix', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const sets = [0, 1, 2].map((n) =>
      Array.from({ length: 10 }, (_, i) => ({ key: `K${i}`, value: `set${n}` })),
    );
    const answers = await Promise.all(sets.map((set) => replace(key, projectId, set)));
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const values = new Set((await listAll(key, projectId)).map((variable) => variable.value));
    expect(values.size).toBe(1);
    expect(await listAll(key, projectId)).toHaveLength(10);
  });
});

describe('limits', () => {
  it('holds at most 100 variables a project: the 101st POST is 409, a PUT of 101 is 400 naming variables', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ key: `V${i}`, value: String(i) }));
    expect((await replace(key, projectId, hundred)).status).toBe(200);
    const extra = await addVariable(key, projectId, { key: 'ONE_MORE', value: 'x' });
    expect(extra.status).toBe(409);
    expect((extra.body as { message: string }).message).toContain('100');
    const tooMany = await replace(key, projectId, [...hundred, { key: 'ONE_MORE', value: 'x' }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ field: 'variables' });
    expect(await listAll(key, projectId)).toHaveLength(100);
  });
});

describe('who may do what', () => {
  it("answers 404 for another user's project and deployment, on every route", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const projectId = await newProject(owner.key);
    const variable = await added(owner.key, projectId, { key: 'A', value: 'a' });
    const deployment = await deploy(owner.key, { projectId });
    const strangerBuild = await keyWith(stranger.key, ['build']);
    const answers = await Promise.all([
      call(envUrl(projectId), { key: stranger.key }),
      addVariable(stranger.key, projectId, { key: 'B', value: 'b' }),
      replace(stranger.key, projectId, []),
      call(`${envUrl(projectId)}/${variable.id}`, {
        method: 'PATCH',
        key: stranger.key,
        json: { value: 'x' },
      }),
      call(`${envUrl(projectId)}/${variable.id}`, { method: 'DELETE', key: stranger.key }),
      buildEnv(strangerBuild, deployment.id),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(await listAll(owner.key, projectId)).toEqual([variable]);
  });

  it('lets a read key list but not change variables', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    const variable = await added(key, projectId, { key: 'A', value: 'a' });
    const readKey = await keyWith(key, ['read']);
    expect((await call(envUrl(projectId), { key: readKey })).status).toBe(200);
    const refused = await Promise.all([
      addVariable(readKey, projectId, { key: 'B', value: 'b' }),
      replace(readKey, projectId, []),
      call(`${envUrl(projectId)}/${variable.id}`, { method: 'PATCH', key: readKey, json: { value: 'x' } }),
      call(`${envUrl(projectId)}/${variable.id}`, { method: 'DELETE', key: readKey }),
    ]);
    expect(refused.map((answer) => [answer.status, (answer.body as { error: string }).error])).toEqual(
      Array(4).fill([403, 'forbidden']),
    );
  });

  it('gives build keys only the build routes, and keeps read and write keys off build-env', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await added(key, projectId, { key: 'A', value: 'a' });
    const deployment = await deploy(key, { projectId });
    const build = await keyWith(key, ['build']);
    const readBuild = await keyWith(key, ['read', 'build']);
    const readKey = await keyWith(key, ['read']);
    const dpl = `${gateway.baseUrl}/deployments/${deployment.id}`;

    // What a build key may do.
    expect((await call(dpl, { key: build })).status).toBe(200);
    expect((await call(`${dpl}/events`, { key: build })).status).toBe(200);
    expect((await buildEnv(build, deployment.id)).status).toBe(200);
    expect(
      (await call(`${dpl}/events`, { method: 'POST', key: build, json: { status: 'building' } })).status,
    ).toBe(200);

    // Everything else is 403, naming the scope.
    const refused = await Promise.all([
      call(`${gateway.baseUrl}/projects`, { key: build }),
      call(`${gateway.baseUrl}/projects/${projectId}`, { key: build }),
      call(envUrl(projectId), { key: build }),
      addVariable(build, projectId, { key: 'B', value: 'b' }),
      call(`${gateway.baseUrl}/deployments`, { method: 'POST', key: build, json: { projectId } }),
      call(`${dpl}/cancel`, { method: 'POST', key: build }),
      call(`${gateway.baseUrl}/keys`, { key: build }),
      call(`${gateway.baseUrl}/keys`, { method: 'POST', key: build, json: { name: 'x' } }),
    ]);
    expect(refused.map((answer) => answer.status)).toEqual(Array(8).fill(403));

    // read + build reads what read reads, and the build routes.
    expect((await call(`${gateway.baseUrl}/projects`, { key: readBuild })).status).toBe(200);
    expect((await buildEnv(readBuild, deployment.id)).status).toBe(200);

    // Neither read nor write reads build-env.
    for (const other of [key, readKey]) {
      const answer = await buildEnv(other, deployment.id);
      expect(answer.status).toBe(403);
      expect((answer.body as { message: string }).message).toContain('build');
    }
  });

  it('lets a write key make a build key, but not a read key, and gives login keys read and write only', async () => {
    const { key } = await newCaller();
    const readKey = await keyWith(key, ['read']);
    const refused = await call(`${gateway.baseUrl}/keys`, {
      method: 'POST',
      key: readKey,
      json: { name: 'ci', scopes: ['build'] },
    });
    expect(refused.status).toBe(403);
    const build = await keyWith(key, ['build']);
    const listed = await call(`${gateway.baseUrl}/keys`, { key });
    const scopes = (listed.body as { keys: { scopes: string[] }[] }).keys.map(
      (listedKey) => listedKey.scopes,
    );
    expect(scopes).toContainEqual(['build']);
    expect(build).toMatch(/^plat_/);
  });
});

describe('what a deployment builds with', () => {
  it('keeps the values of its creation: a change reaches the next deployment, not this one', async () => {
    const { key } = await newCaller();
    const build = await keyWith(key, ['build']);
    const projectId = await newProject(key);
    const plain = await added(key, projectId, { key: 'GREETING', value: 'hello' });
    const secret = await added(key, projectId, { key: 'TOKEN', value: 'tok-1', type: 'secret' });
    const first = await deploy(key, { projectId });
    await call(`${envUrl(projectId)}/${plain.id}`, { method: 'PATCH', key, json: { value: 'bonjour' } });
    await call(`${envUrl(projectId)}/${secret.id}`, { method: 'PATCH', key, json: { value: 'tok-2' } });
    await added(key, projectId, { key: 'LATER', value: 'later' });
    expect((await buildEnv(build, first.id)).body).toEqual({
      variables: { GREETING: 'hello', TOKEN: 'tok-1' },
      target: 'production',
    });
    const second = await deploy(key, { projectId });
    expect((await buildEnv(build, second.id)).body).toEqual({
      variables: { GREETING: 'bonjour', TOKEN: 'tok-2', LATER: 'later' },
      target: 'production',
    });
    // A replace does not reach existing deployments either.
    await replace(key, projectId, [{ key: 'ONLY', value: 'only' }]);
    expect((await buildEnv(build, second.id)).body).toMatchObject({ variables: { GREETING: 'bonjour' } });
  });

  it("takes its target's variables: production for the production branch, preview for others, never development", async () => {
    const { key } = await newCaller();
    const build = await keyWith(key, ['build']);
    const projectId = await newProject(key, { name: 'web', productionBranch: 'release' });
    await replace(key, projectId, [
      { key: 'URL', value: 'https://example.com', targets: ['production'] },
      { key: 'URL', value: 'https://preview.example.com', targets: ['preview'] },
      { key: 'URL', value: 'http://localhost', targets: ['development'] },
      { key: 'DEBUG', value: '1', targets: ['development'] },
    ]);
    const production = await deploy(key, { projectId });
    const preview = await deploy(key, { projectId, branch: 'feature/x' });
    expect((await buildEnv(build, production.id)).body).toEqual({
      variables: { URL: 'https://example.com' },
      target: 'production',
    });
    expect((await buildEnv(build, preview.id)).body).toEqual({
      variables: { URL: 'https://preview.example.com' },
      target: 'preview',
    });
    // A redeploy keeps its original's target, with the variables as they are now.
    await call(`${gateway.baseUrl}/projects/${projectId}`, {
      method: 'PATCH',
      key,
      json: { productionBranch: 'feature/x' },
    });
    const redeploy = await deploy(key, { redeployOf: production.id });
    expect((await buildEnv(build, redeploy.id)).body).toMatchObject({ target: 'production' });
  });

  it('is readable while queued or building only, and records each read (not the refused ones) in its events', async () => {
    const { key } = await newCaller();
    const build = await keyWith(key, ['build']);
    const buildKeyId = (
      (await call(`${gateway.baseUrl}/keys`, { key })).body as { keys: { id: string; scopes: string[] }[] }
    ).keys.find((listed) => listed.scopes.includes('build'))?.id;
    const projectId = await newProject(key);
    const deployment = await deploy(key, { projectId });
    const dpl = `${gateway.baseUrl}/deployments/${deployment.id}`;
    expect((await buildEnv(build, deployment.id)).body).toEqual({ variables: {}, target: 'production' });
    await call(`${dpl}/events`, { method: 'POST', key: build, json: { status: 'building' } });
    expect((await buildEnv(build, deployment.id)).status).toBe(200);
    await call(`${dpl}/events`, { method: 'POST', key: build, json: { status: 'ready' } });
    const late = await buildEnv(build, deployment.id);
    expect(late.status).toBe(409);
    expect((late.body as { message: string }).message).toContain('ready');
    expect((await buildEnv(key, deployment.id)).status).toBe(403);
    const { events } = (await call(`${dpl}/events`, { key })).body as { events: Record<string, unknown>[] };
    expect(events.map((event) => event.status ?? event.type)).toEqual([
      'queued',
      'build-env-read',
      'building',
      'build-env-read',
      'ready',
    ]);
    expect(events[1]).toEqual({ type: 'build-env-read', keyId: buildKeyId, at: expect.stringMatching(ISO) });
    // The reads change no status and no timestamp of the deployment.
    expect((await call(dpl, { key })).body).toMatchObject({ status: 'ready' });
    expect((await buildEnv(build, 'dpl_unknown')).status).toBe(404);
  });

  it('records at most 20 reads of one deployment, then refuses more (409) and records nothing', async () => {
    const { key } = await newCaller();
    const build = await keyWith(key, ['build']);
    const deployment = await deploy(key, { projectId: await newProject(key) });
    for (let read = 1; read <= 20; read++) expect((await buildEnv(build, deployment.id)).status).toBe(200);
    const refused = await buildEnv(build, deployment.id);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toContain('read 20 times');
    const { events } = (await call(`${gateway.baseUrl}/deployments/${deployment.id}/events`, { key }))
      .body as { events: Record<string, unknown>[] };
    expect(events.filter((event) => event.type === 'build-env-read')).toHaveLength(20);
    // Terminal, it answers for its status as before.
    await call(`${gateway.baseUrl}/deployments/${deployment.id}/cancel`, { method: 'POST', key });
    expect((await buildEnv(build, deployment.id)).body).toMatchObject({
      message: expect.stringContaining('canceled'),
    });
  });
});

describe('storage', () => {
  it('stores no value in the clear, plain or secret, and drops everything with the project', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await added(key, projectId, { key: 'PLAIN', value: 'plain-value-in-clear' });
    await added(key, projectId, { key: 'SECRET', value: 'secret-value-in-clear', type: 'secret' });
    await deploy(key, { projectId });
    const items = async () =>
      (
        await db.send(
          new QueryCommand({
            TableName: tableName('environment'),
            KeyConditionExpression: 'projectId = :p',
            ExpressionAttributeValues: { ':p': projectId },
          }),
        )
      ).Items ?? [];
    const raw = JSON.stringify(await items());
    expect(raw).toContain('PLAIN');
    expect(raw).not.toContain('plain-value-in-clear');
    expect(raw).not.toContain('secret-value-in-clear');
    expect((await call(`${gateway.baseUrl}/projects/${projectId}`, { method: 'DELETE', key })).status).toBe(
      204,
    );
    expect(await items()).toEqual([]);
    expect((await call(envUrl(projectId), { key })).status).toBe(404);
  });
});

describe('DynamoDB round trips per request', () => {
  // Pinned mid-window: a request that opened a new rate-limit window would make one more write.
  const realNow = restoreClockAfterEach();
  beforeEach(() => {
    const windowStart = Math.floor(realNow() / 60_000) * 60_000;
    clock.now = () => windowStart + 30_000;
  });
  const countCalls = async (request: () => Promise<unknown>): Promise<string[]> => {
    commands.take();
    await request();
    return commands.take().sort();
  };

  it('GET /projects/{id}/env: 4 (auth and count; the project and the head at once; one Query for the page)', async () => {
    const { key } = await newCaller();
    const projectId = await newProject(key);
    await replace(
      key,
      projectId,
      Array.from({ length: 30 }, (_, i) => ({ key: `K${i}`, value: 'v', type: i % 2 ? 'secret' : 'plain' })),
    );
    expect(await countCalls(() => call(envUrl(projectId), { key }))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'UpdateItemCommand',
    ]);
    // A project without variables: no Query.
    const empty = await newProject(key);
    expect(await countCalls(() => call(envUrl(empty), { key }))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
    ]);
  });

  it('GET /deployments/{id}/build-env: 3 (auth and count; recording the read, which answers the project; one Query for the snapshot)', async () => {
    const { key } = await newCaller();
    const build = await keyWith(key, ['build']);
    const projectId = await newProject(key);
    await replace(
      key,
      projectId,
      Array.from({ length: 30 }, (_, i) => ({ key: `K${i}`, value: 'v', type: 'secret' })),
    );
    const deployment = await deploy(key, { projectId });
    expect(await countCalls(() => buildEnv(build, deployment.id))).toEqual([
      'QueryCommand',
      'UpdateItemCommand',
      'UpdateItemCommand',
    ]);
    // Refused once terminal: the conditional write says why, and nothing else is read.
    await call(`${gateway.baseUrl}/deployments/${deployment.id}/cancel`, { method: 'POST', key });
    expect(await countCalls(() => buildEnv(build, deployment.id))).toEqual([
      'UpdateItemCommand',
      'UpdateItemCommand',
    ]);
  });
});
