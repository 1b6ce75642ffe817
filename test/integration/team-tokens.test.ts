import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { recordCommands } from '../support/dynamodb-commands.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// Team tokens over HTTP: made by admins, acting as the team (no teamId needed, another team 404),
// outliving their maker, never managing the team, revoked on their next request, always expiring.
// Their limits, route by route: team-token-reach.test.ts (projects), team-token-targets.test.ts
// (targets).

let gateway: TestGateway;
const commands = recordCommands();
restoreClockAfterEach();

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const url = (path: string) => `${gateway.baseUrl}${path}`;
const as = (key: string) => ({
  get: (path: string) => call(url(path), { key }),
  send: (method: string, path: string, json?: unknown) =>
    call(url(path), { method, key, ...(json === undefined ? {} : { json }) }),
});

interface Setup {
  owner: TestPerson;
  teamId: string;
  projects: string[];
}

async function teamWithProjects(count = 2): Promise<Setup> {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(gateway.baseUrl, owner);
  const projects: string[] = [];
  for (let i = 0; i < count; i++) {
    const made = await as(owner.key).send('POST', `/projects?teamId=${teamId}`, { name: `p${i}` });
    projects.push((made.body as { id: string }).id);
  }
  return { owner, teamId, projects };
}

async function tokenOf(setup: Setup, body: Record<string, unknown>, maker: TestPerson = setup.owner) {
  const made = await as(maker.key).send('POST', `/teams/${setup.teamId}/tokens`, {
    name: 'ci',
    scopes: ['read', 'write'],
    expiresInDays: 30,
    ...body,
  });
  expect(made.status).toBe(201);
  return made.body as { apiKey: string; token: { id: string; prefix: string } };
}

describe('a team token', () => {
  it('is shown once with a prefix of its own, listed without its secret, and acts as its team without a teamId', async () => {
    const setup = await teamWithProjects(1);
    const { apiKey, token } = await tokenOf(setup, {});
    expect(apiKey).toMatch(/^platt_[0-9A-Za-z]{38}$/);
    expect(token.prefix).toBe(apiKey.slice(0, 10));
    const listed = await as(setup.owner.key).get(`/teams/${setup.teamId}/tokens`);
    expect(listed.text).not.toContain(apiKey);
    expect((listed.body as { tokens: { id: string; createdBy: string }[] }).tokens).toEqual([
      expect.objectContaining({
        id: token.id,
        createdBy: setup.owner.userId,
        projectIds: null,
        targets: ['production', 'preview'],
      }),
    ]);
    const projects = await as(apiKey).get('/projects');
    expect((projects.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual(
      setup.projects,
    );
    expect((await as(apiKey).get(`/projects?teamId=${setup.teamId}`)).status).toBe(200);
    // Another team, even its maker's personal one, is a team it is not in.
    const personal = `team_${setup.owner.userId.slice('usr_'.length)}`;
    expect((await as(apiKey).get(`/projects?teamId=${personal}`)).status).toBe(404);
  });

  it('keeps working after the member who made it leaves, and stops on the request after its revocation', async () => {
    const setup = await teamWithProjects(1);
    const admin = await newPerson('Admin');
    await join(gateway.baseUrl, setup.teamId, setup.owner, admin, 'admin');
    const { apiKey, token } = await tokenOf(setup, {}, admin);
    expect(
      (await as(admin.key).send('DELETE', `/teams/${setup.teamId}/members/${admin.userId}`)).status,
    ).toBe(204);
    expect((await as(apiKey).get(`/projects/${setup.projects[0]}`)).status).toBe(200);
    expect(
      (await as(setup.owner.key).send('DELETE', `/teams/${setup.teamId}/tokens/${token.id}`)).status,
    ).toBe(204);
    expect((await as(apiKey).get(`/projects/${setup.projects[0]}`)).status).toBe(401);
  });

  it('keeps working after an owner removes the member who made it', async () => {
    const setup = await teamWithProjects(1);
    const admin = await newPerson('Admin');
    await join(gateway.baseUrl, setup.teamId, setup.owner, admin, 'admin');
    const { apiKey } = await tokenOf(setup, {}, admin);
    expect(
      (await as(setup.owner.key).send('DELETE', `/teams/${setup.teamId}/members/${admin.userId}`)).status,
    ).toBe(204);
    // The maker is out (their own key no longer reaches the team); the token still acts in it.
    expect((await as(admin.key).get(`/projects/${setup.projects[0]}?teamId=${setup.teamId}`)).status).toBe(
      404,
    );
    expect((await as(apiKey).get(`/projects/${setup.projects[0]}`)).status).toBe(200);
    expect((await as(apiKey).send('POST', '/deployments', { projectId: setup.projects[0] })).status).toBe(
      201,
    );
  });

  it('expires after its days, and must be given them (1 to 365)', async () => {
    const setup = await teamWithProjects(0);
    for (const expiresInDays of [undefined, 0, 366]) {
      const refused = await as(setup.owner.key).send('POST', `/teams/${setup.teamId}/tokens`, {
        name: 'ci',
        scopes: ['read'],
        ...(expiresInDays === undefined ? {} : { expiresInDays }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(expect.objectContaining({ field: 'expiresInDays' }));
    }
    const { apiKey } = await tokenOf(setup, { expiresInDays: 1 });
    expect((await as(apiKey).get('/projects')).status).toBe(200);
    const now = Date.now();
    clock.now = () => now + 86_400_000 + 1_000;
    expect((await as(apiKey).get('/projects')).status).toBe(401);
  });

  it('is made by admins only: a developer is refused, and a token never manages the team', async () => {
    const setup = await teamWithProjects(0);
    const developer = await newPerson('Dev');
    await join(gateway.baseUrl, setup.teamId, setup.owner, developer, 'developer');
    const refused = await as(developer.key).send('POST', `/teams/${setup.teamId}/tokens`, {
      name: 'ci',
      scopes: ['read'],
      expiresInDays: 1,
    });
    expect(refused.status).toBe(403);
    const { apiKey, token: self } = await tokenOf(setup, {});
    const other = await tokenOf(setup, { scopes: ['read'] });
    const invited = await as(setup.owner.key).send('POST', `/teams/${setup.teamId}/invitations`, {
      email: 'kept@example.test',
      role: 'viewer',
    });
    const invitation = (invited.body as { id: string }).id;
    const managing: [string, string, unknown?][] = [
      ['POST', `/teams/${setup.teamId}/tokens`, { name: 'x', scopes: ['read'], expiresInDays: 1 }],
      ['GET', `/teams/${setup.teamId}/tokens`],
      ['PATCH', `/teams/${setup.teamId}`, { name: 'mine now' }],
      ['DELETE', `/teams/${setup.teamId}`],
      ['POST', `/teams/${setup.teamId}/invitations`, { email: 'x@example.test', role: 'viewer' }],
      ['GET', `/teams/${setup.teamId}/invitations`],
      ['DELETE', `/teams/${setup.teamId}/invitations/${invitation}`],
      ['DELETE', `/teams/${setup.teamId}/tokens/${other.token.id}`],
      ['DELETE', `/teams/${setup.teamId}/tokens/${self.id}`],
      ['GET', `/teams/${setup.teamId}/audit-events`],
      ['PATCH', `/teams/${setup.teamId}/members/${setup.owner.userId}`, { role: 'viewer' }],
      ['DELETE', `/teams/${setup.teamId}/members/${setup.owner.userId}`],
      ['GET', '/keys'],
      ['POST', '/keys', { name: 'more' }],
      ['POST', '/teams', { name: 'another' }],
      ['POST', '/invitations/accept', { code: 'inv_x' }],
      ['GET', '/invitations'],
    ];
    for (const [method, path, json] of managing) {
      const answer = await as(apiKey).send(method, path, json);
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
    // What it tried to revoke is still there.
    expect((await as(other.apiKey).get('/projects')).status).toBe(200);
    const invitations = await as(setup.owner.key).get(`/teams/${setup.teamId}/invitations`);
    expect((invitations.body as { invitations: { id: string }[] }).invitations.map((i) => i.id)).toEqual([
      invitation,
    ]);
    // Reading who is in the team is not managing it.
    expect((await as(apiKey).get(`/teams/${setup.teamId}/members`)).status).toBe(200);
  });

  it('is one of at most 20 a team holds at once: the 21st is 409 naming team tokens, and a revocation makes room', async () => {
    const setup = await teamWithProjects(0);
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await tokenOf(setup, {}));
    const over = await as(setup.owner.key).send('POST', `/teams/${setup.teamId}/tokens`, {
      name: 'one too many',
      scopes: ['read'],
      expiresInDays: 1,
    });
    expect([over.status, over.body]).toEqual([
      409,
      {
        error: 'conflict',
        message: expect.stringMatching(/^A team may hold at most 20 team tokens at once: revoke one/),
      },
    ]);
    const [first] = made;
    if (!first) throw new Error('no token was made');
    const revoked = await as(setup.owner.key).send(
      'DELETE',
      `/teams/${setup.teamId}/tokens/${first.token.id}`,
    );
    expect(revoked.status).toBe(204);
    await tokenOf(setup, {});
  });

  it('costs what a personal key does: a keyed GET of a project is one counting write and one read', async () => {
    const setup = await teamWithProjects(1);
    const { apiKey } = await tokenOf(setup, {});
    const path = `/projects/${setup.projects[0]}`;
    // Pinned mid-window, warmed: the first request of a window opens it (one more write), which is not
    // what this counts.
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    clock.now = () => windowStart + 30_000;
    await as(apiKey).get(path);
    commands.take();
    expect((await as(apiKey).get(path)).status).toBe(200);
    // Its team and role come with the key's item: no membership to read.
    expect(commands.take()).toEqual(['UpdateItemCommand', 'GetItemCommand']);
  });
});

describe('a team token limited to projects', () => {
  it("is refused projects that are not the team's (400 naming projectIds)", async () => {
    const setup = await teamWithProjects(1);
    const elsewhere = await teamWithProjects(1);
    const refused = await as(setup.owner.key).send('POST', `/teams/${setup.teamId}/tokens`, {
      name: 'ci',
      scopes: ['read'],
      expiresInDays: 1,
      projectIds: [elsewhere.projects[0]],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(expect.objectContaining({ field: 'projectIds' }));
  });
});
