import { randomUUID } from 'node:crypto';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import type { Scope } from '#shared/model/scopes.ts';
import { actsInTeam, type EndpointRoute, routes } from '#shared/routes.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGatewayDroppingDeliveries } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { join, newPerson, newTeam, type TestPerson, teamOfEveryRole } from '../support/teams.ts';

// What each role may do in a team, over HTTP, route by route: allowed (the request does its work) or
// refused (403 naming the role it takes), as the contract's table says ("Teams, team tokens, the
// audit log and domains"). The expectations are written here from the contract's words, not read
// from the matrix the service checks (shared/model/roles.ts), so that a drift between the two fails.

const ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
type Role = (typeof ROLES)[number];
const rank = (role: Role): number => ROLES.indexOf(role);

/** The lowest role that may make each request that acts in a team; each role holds what the one before holds. */
const LOWEST_ROLE: Readonly<Record<string, Role>> = {
  // viewer: "read the team, its members, projects, deployments, events, logs, variables (never a
  // secret's value), production history, webhooks".
  'GET /projects': 'viewer',
  'GET /projects/{id}': 'viewer',
  'GET /projects/{id}/deployments': 'viewer',
  'GET /projects/{id}/production-history': 'viewer',
  'GET /projects/{id}/env': 'viewer',
  'GET /deployments': 'viewer',
  'GET /deployments/{id}': 'viewer',
  'GET /deployments/{id}/events': 'viewer',
  'GET /deployments/{id}/logs': 'viewer',
  'GET /deployments/{id}/wait': 'viewer',
  'GET /webhooks': 'viewer',
  'GET /webhooks/{id}': 'viewer',
  'GET /webhooks/{id}/deliveries': 'viewer',
  'GET /teams/{teamId}': 'viewer',
  'GET /teams/{teamId}/members': 'viewer',
  // viewer: "domains"; the contract's table: `GET /projects/{id}/domains`, `GET .../domains/{name}`: member.
  'GET /projects/{id}/domains': 'viewer',
  'GET /projects/{id}/domains/{name}': 'viewer',
  // developer: "create and update projects".
  'POST /projects': 'developer',
  'PATCH /projects/{id}': 'developer',
  // developer: "create, cancel and redeploy deployments of either target"; a build's own requests
  // (its progress, its log, the variables it builds with, secrets included) go with making one.
  'POST /deployments': 'developer',
  'POST /deployments/{id}/cancel': 'developer',
  'POST /deployments/{id}/events': 'developer',
  'POST /deployments/{id}/logs': 'developer',
  'GET /deployments/{id}/build-env': 'developer',
  // developer: "write `preview` and `development` variables" (production ones are an admin's: below).
  'POST /projects/{id}/env': 'developer',
  'PUT /projects/{id}/env': 'developer',
  'PATCH /projects/{id}/env/{envId}': 'developer',
  'DELETE /projects/{id}/env/{envId}': 'developer',
  // admin: "promote, roll back; ... delete projects; webhooks; ... invitations; members up to
  // `admin`; ... rename the team".
  'POST /projects/{id}/promote': 'admin',
  'POST /projects/{id}/rollback': 'admin',
  'DELETE /projects/{id}': 'admin',
  'POST /webhooks': 'admin',
  'PATCH /webhooks/{id}': 'admin',
  'DELETE /webhooks/{id}': 'admin',
  'POST /webhooks/{id}/test': 'admin',
  'POST /teams/{teamId}/invitations': 'admin',
  'GET /teams/{teamId}/invitations': 'admin',
  'DELETE /teams/{teamId}/invitations/{id}': 'admin',
  'PATCH /teams/{teamId}/members/{userId}': 'admin',
  'DELETE /teams/{teamId}/members/{userId}': 'admin',
  'PATCH /teams/{teamId}': 'admin',
  // admin: "domains"; the contract's table: add, delete, verify: admin.
  'POST /projects/{id}/domains': 'admin',
  'DELETE /projects/{id}/domains/{name}': 'admin',
  'POST /projects/{id}/domains/{name}/verify': 'admin',
  // admin: "team tokens".
  'POST /teams/{teamId}/tokens': 'admin',
  'GET /teams/{teamId}/tokens': 'admin',
  'DELETE /teams/{teamId}/tokens/{id}': 'admin',
  // admin: "read the audit log".
  'GET /teams/{teamId}/audit-events': 'admin',
  // owner: "delete the team".
  'DELETE /teams/{teamId}': 'owner',
  // A member's own keys ("a member's personal keys act in any team of theirs"): any member.
  'GET /keys': 'viewer',
  'POST /keys': 'viewer',
  'DELETE /keys/{id}': 'viewer',
};

/** A domain name no one holds (a name is held across all teams). */
const freeDomainName = (): string => `roles-${randomUUID().slice(0, 12)}.example.com`;

const nameOf = (route: EndpointRoute): string => `${route.method} ${route.path}`;
const teamRows = routes.filter(actsInTeam);

/** Whether a `read` key may make the request: "a `read` key of an owner reads only" (a build's variables are the `build` scope's). */
const readKeyMay = (route: EndpointRoute): boolean =>
  route.method === 'GET' && route.path !== '/deployments/{id}/build-env';

interface Member extends TestPerson {
  /** A key of theirs with the `build` scope alone: the rows that take only that. */
  buildKey: string;
}

/** A person whose keys outlast this file's requests (the default allowance is 100 a minute). */
async function member(name: string): Promise<Member> {
  const person = await newPerson(name, { rateLimit: 100_000 });
  const build = await issueApiKey({
    userId: person.userId,
    role: 'member',
    name: 'build',
    scopes: ['build'],
    rateLimit: 100_000,
  });
  return { ...person, buildKey: build.apiKey };
}

async function keyOf(person: TestPerson, scopes: Scope[]): Promise<string> {
  const issued = await issueApiKey({
    userId: person.userId,
    role: 'member',
    name: 'k',
    scopes,
    rateLimit: 100_000,
  });
  return issued.apiKey;
}

let gateway: TestGateway;
beforeAll(async () => {
  // Deliveries are not what this file is about.
  gateway = await startGatewayDroppingDeliveries();
});
afterAll(() => gateway.close());

const withTeam = (path: string, teamId: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;

/** What one request is: its path (the team named in it or in its query) and body. */
interface Made {
  path: string;
  json?: unknown;
}

describe('the role matrix, route by route', () => {
  let teamId: string;
  let people: Record<Role, Member>;
  /** The owner's key that may only read. */
  let ownersReadKey: string;
  /** Things of the team that requests read or change without using them up. */
  let fixture: {
    projectId: string;
    deploymentId: string;
    webhookId: string;
    previewVariableId: string;
    /** A viewer whom refused member changes name. */
    bystander: string;
    invitationId: string;
    tokenId: string;
    domain: string;
  };

  const inTeam = (path: string): string => withTeam(path, teamId);
  /** A request of the owner's that makes something in the team; its body. */
  async function made(path: string, json: unknown = {}): Promise<{ id: string }> {
    const response = await call(`${gateway.baseUrl}${inTeam(path)}`, {
      method: 'POST',
      key: people.owner.key,
      json,
    });
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
    const body = response.body as { id?: string; webhook?: { id: string } };
    return { id: body.id ?? body.webhook?.id ?? '' };
  }
  const project = async () => (await made('/projects', { name: 'roles' })).id;
  const deployment = async (projectId = fixture.projectId) => (await made('/deployments', { projectId })).id;
  const previewVariable = async (projectId = fixture.projectId) =>
    (
      await made(`/projects/${projectId}/env`, {
        key: `V_${randomUUID().slice(0, 8).toUpperCase()}`,
        value: 'v',
        targets: ['preview'],
      })
    ).id;
  /** A preview variable's path: of a new project of its own, or the team's. */
  const variablePath = async (fresh: boolean) => {
    if (!fresh) return `/projects/${fixture.projectId}/env/${fixture.previewVariableId}`;
    const projectId = await project();
    return `/projects/${projectId}/env/${await previewVariable(projectId)}`;
  };
  /** A project whose production moved from one ready deployment to a newer one. */
  const production = async () => {
    const projectId = await project();
    const ready = async () => {
      const id = await deployment(projectId);
      for (const status of ['building', 'ready']) await made(`/deployments/${id}/events`, { status });
      return id;
    };
    const earlier = await ready();
    await ready();
    return { projectId, earlier };
  };
  const webhook = async () =>
    (await made('/webhooks', { url: 'https://203.0.113.80/roles', events: ['deployment.ready'] })).id;
  const invitation = async () =>
    (await made(`/teams/${teamId}/invitations`, { email: `${randomUUID()}@example.test`, role: 'viewer' }))
      .id;
  const domain = async (projectId = fixture.projectId) =>
    (
      await call(`${gateway.baseUrl}${inTeam(`/projects/${projectId}/domains`)}`, {
        method: 'POST',
        key: people.owner.key,
        json: { name: freeDomainName() },
      })
    ).body as { name: string };
  const token = async () => {
    const response = await call(`${gateway.baseUrl}/teams/${teamId}/tokens`, {
      method: 'POST',
      key: people.owner.key,
      json: { name: 'ci', scopes: ['read'], expiresInDays: 1 },
    });
    if (response.status !== 201) throw new Error(`token: ${response.status} ${response.text}`);
    return (response.body as { token: { id: string } }).token.id;
  };
  /** A new developer of the team, for a request that changes or removes one. */
  const newDeveloper = async () => {
    const person = await newPerson('Joiner');
    await join(gateway.baseUrl, teamId, people.owner, person, 'developer');
    return person.userId;
  };

  /**
   * Each route's request: `fresh` when it is to be allowed (it may use up what it names), else it
   * names what the team keeps (a refusal changes nothing). `who` is the member making it.
   */
  const REQUESTS: Readonly<Record<string, (fresh: boolean, who: Member) => Promise<Made>>> = {
    'GET /projects': async () => ({ path: '/projects' }),
    'POST /projects': async () => ({ path: '/projects', json: { name: 'made' } }),
    'GET /projects/{id}': async () => ({ path: `/projects/${fixture.projectId}` }),
    'PATCH /projects/{id}': async () => ({
      path: `/projects/${fixture.projectId}`,
      json: { name: 'renamed' },
    }),
    'DELETE /projects/{id}': async (fresh) => ({
      path: `/projects/${fresh ? await project() : fixture.projectId}`,
    }),
    'GET /projects/{id}/deployments': async () => ({ path: `/projects/${fixture.projectId}/deployments` }),
    'POST /projects/{id}/promote': async (fresh) => {
      const moved = fresh
        ? await production()
        : { projectId: fixture.projectId, earlier: fixture.deploymentId };
      return { path: `/projects/${moved.projectId}/promote`, json: { deploymentId: moved.earlier } };
    },
    'POST /projects/{id}/rollback': async (fresh) => ({
      path: `/projects/${fresh ? (await production()).projectId : fixture.projectId}/rollback`,
      json: {},
    }),
    'GET /projects/{id}/production-history': async () => ({
      path: `/projects/${fixture.projectId}/production-history`,
    }),
    'GET /projects/{id}/env': async () => ({ path: `/projects/${fixture.projectId}/env` }),
    // A project's variables change one request at a time (a concurrent change is a 409): each
    // allowed request changes those of a project of its own.
    'POST /projects/{id}/env': async (fresh) => ({
      path: `/projects/${fresh ? await project() : fixture.projectId}/env`,
      json: { key: 'ADDED', value: 'v', targets: ['preview', 'development'] },
    }),
    'PUT /projects/{id}/env': async (fresh) => ({
      path: `/projects/${fresh ? await project() : fixture.projectId}/env`,
      json: { variables: [{ key: 'REPLACED', value: 'v', targets: ['preview'] }] },
    }),
    'PATCH /projects/{id}/env/{envId}': async (fresh) => ({
      path: await variablePath(fresh),
      json: { value: 'changed' },
    }),
    'DELETE /projects/{id}/env/{envId}': async (fresh) => ({ path: await variablePath(fresh) }),
    'POST /deployments': async () => ({ path: '/deployments', json: { projectId: fixture.projectId } }),
    'GET /deployments': async () => ({ path: '/deployments' }),
    'GET /deployments/{id}': async () => ({ path: `/deployments/${fixture.deploymentId}` }),
    'POST /deployments/{id}/events': async (fresh) => ({
      path: `/deployments/${fresh ? await deployment() : fixture.deploymentId}/events`,
      json: { status: 'building' },
    }),
    'GET /deployments/{id}/events': async () => ({ path: `/deployments/${fixture.deploymentId}/events` }),
    'POST /deployments/{id}/logs': async () => ({
      path: `/deployments/${fixture.deploymentId}/logs`,
      json: { lines: [{ text: 'building' }] },
    }),
    'GET /deployments/{id}/logs': async () => ({ path: `/deployments/${fixture.deploymentId}/logs` }),
    'POST /deployments/{id}/cancel': async (fresh) => ({
      path: `/deployments/${fresh ? await deployment() : fixture.deploymentId}/cancel`,
    }),
    // A preview's: a production deployment's is production's secrets, an admin's to read (below).
    'GET /deployments/{id}/build-env': async () => ({
      path: `/deployments/${(await made('/deployments', { projectId: fixture.projectId, branch: 'feature' })).id}/build-env`,
    }),
    'GET /deployments/{id}/wait': async () => ({
      path: `/deployments/${fixture.deploymentId}/wait?status=queued`,
    }),
    'GET /keys': async () => ({ path: '/keys' }),
    'POST /keys': async () => ({ path: '/keys', json: { name: 'mine' } }),
    'DELETE /keys/{id}': async (_fresh, who) => {
      const created = await call(`${gateway.baseUrl}/keys`, {
        method: 'POST',
        key: who.key,
        json: { name: 'spare' },
      });
      return { path: `/keys/${(created.body as { key: { id: string } }).key.id}` };
    },
    'GET /webhooks': async () => ({ path: '/webhooks' }),
    'POST /webhooks': async () => ({
      path: '/webhooks',
      json: { url: 'https://203.0.113.80/roles', events: ['deployment.ready'] },
    }),
    'GET /webhooks/{id}': async () => ({ path: `/webhooks/${fixture.webhookId}` }),
    'PATCH /webhooks/{id}': async () => ({
      path: `/webhooks/${fixture.webhookId}`,
      json: { description: 'changed' },
    }),
    'DELETE /webhooks/{id}': async (fresh) => ({
      path: `/webhooks/${fresh ? await webhook() : fixture.webhookId}`,
    }),
    'POST /webhooks/{id}/test': async () => ({ path: `/webhooks/${fixture.webhookId}/test` }),
    'GET /webhooks/{id}/deliveries': async () => ({ path: `/webhooks/${fixture.webhookId}/deliveries` }),
    'GET /teams/{teamId}': async () => ({ path: `/teams/${teamId}` }),
    'PATCH /teams/{teamId}': async () => ({ path: `/teams/${teamId}`, json: { name: 'Renamed' } }),
    // The team that is deleted is one of the owner's without projects; refusals name this one.
    'DELETE /teams/{teamId}': async (fresh) => ({
      path: `/teams/${fresh ? await newTeam(gateway.baseUrl, people.owner) : teamId}`,
    }),
    'GET /teams/{teamId}/members': async () => ({ path: `/teams/${teamId}/members` }),
    'PATCH /teams/{teamId}/members/{userId}': async (fresh) => ({
      path: `/teams/${teamId}/members/${fresh ? await newDeveloper() : fixture.bystander}`,
      json: { role: 'viewer' },
    }),
    'DELETE /teams/{teamId}/members/{userId}': async (fresh) => ({
      path: `/teams/${teamId}/members/${fresh ? await newDeveloper() : fixture.bystander}`,
    }),
    'POST /teams/{teamId}/invitations': async () => ({
      path: `/teams/${teamId}/invitations`,
      json: { email: `${randomUUID()}@example.test`, role: 'viewer' },
    }),
    'GET /projects/{id}/domains': async () => ({ path: `/projects/${fixture.projectId}/domains` }),
    'POST /projects/{id}/domains': async () => ({
      path: `/projects/${fixture.projectId}/domains`,
      json: { name: freeDomainName() },
    }),
    'GET /projects/{id}/domains/{name}': async () => ({
      path: `/projects/${fixture.projectId}/domains/${fixture.domain}`,
    }),
    'DELETE /projects/{id}/domains/{name}': async (fresh) => ({
      path: `/projects/${fixture.projectId}/domains/${fresh ? (await domain()).name : fixture.domain}`,
    }),
    'POST /projects/{id}/domains/{name}/verify': async () => ({
      path: `/projects/${fixture.projectId}/domains/${fixture.domain}/verify`,
    }),
    'POST /teams/{teamId}/tokens': async () => ({
      path: `/teams/${teamId}/tokens`,
      json: { name: 'ci', scopes: ['read'], expiresInDays: 1 },
    }),
    'GET /teams/{teamId}/tokens': async () => ({ path: `/teams/${teamId}/tokens` }),
    'GET /teams/{teamId}/audit-events': async () => ({ path: `/teams/${teamId}/audit-events` }),
    'DELETE /teams/{teamId}/tokens/{id}': async (fresh) => ({
      path: `/teams/${teamId}/tokens/${fresh ? await token() : fixture.tokenId}`,
    }),
    'GET /teams/{teamId}/invitations': async () => ({ path: `/teams/${teamId}/invitations` }),
    'DELETE /teams/{teamId}/invitations/{id}': async (fresh) => ({
      path: `/teams/${teamId}/invitations/${fresh ? await invitation() : fixture.invitationId}`,
    }),
  };

  beforeAll(async () => {
    const owner = await member('Owner');
    teamId = await newTeam(gateway.baseUrl, owner);
    const [admin, developer, viewer, bystander] = await Promise.all([
      member('Admin'),
      member('Dev'),
      member('Viewer'),
      newPerson('Bystander'),
    ]);
    people = { owner, admin, developer, viewer };
    await Promise.all([
      join(gateway.baseUrl, teamId, owner, admin, 'admin'),
      join(gateway.baseUrl, teamId, owner, developer, 'developer'),
      join(gateway.baseUrl, teamId, owner, viewer, 'viewer'),
      join(gateway.baseUrl, teamId, owner, bystander, 'viewer'),
    ]);
    ownersReadKey = await keyOf(owner, ['read']);
    const projectId = await project();
    fixture = {
      projectId,
      deploymentId: await deployment(projectId),
      webhookId: await webhook(),
      previewVariableId: await previewVariable(projectId),
      bystander: bystander.userId,
      invitationId: await invitation(),
      tokenId: await token(),
      domain: (await domain(projectId)).name,
    };
  }, 60_000);

  it('has an expectation and a request for every route that acts in a team', () => {
    const names = teamRows.map(nameOf).sort();
    expect(Object.keys(LOWEST_ROLE).sort()).toEqual(names);
    expect(Object.keys(REQUESTS).sort()).toEqual(names);
  });

  /** What an answer says about the matrix: allowed (2xx), refused (the 403's body), or something else. */
  const outcomeOf = (response: JsonResponse) =>
    response.status >= 200 && response.status < 300
      ? 'allowed'
      : response.status === 403
        ? { refused: response.body }
        : { unexpected: response.status, body: response.body };

  const refusedFor = (needed: string | RegExp) => ({
    refused: {
      error: 'forbidden',
      message:
        typeof needed === 'string'
          ? expect.stringMatching(new RegExp(`\\b${needed}\\b`))
          : expect.stringMatching(needed),
    },
  });

  it.each(teamRows.map(nameOf))('%s', async (name) => {
    const route = teamRows.find((row) => nameOf(row) === name);
    const lowest = LOWEST_ROLE[name];
    const request = REQUESTS[name];
    if (!route || !lowest || !request) throw new Error(`no expectation for ${name}`);
    const send = async (who: Member, key: string, fresh: boolean) => {
      const { path, json } = await request(fresh, who);
      return call(`${gateway.baseUrl}${route.team === 'path' ? path : inTeam(path)}`, {
        method: route.method,
        key,
        ...(json === undefined ? {} : { json }),
      });
    };
    const buildOnly = route.scope === 'build';
    const answers = await Promise.all([
      ...ROLES.map(async (role) => {
        const who = people[role];
        const allowed = rank(role) >= rank(lowest);
        return [role, outcomeOf(await send(who, buildOnly ? who.buildKey : who.key, allowed))];
      }),
      (async () => [
        "the owner's read key",
        outcomeOf(await send(people.owner, ownersReadKey, readKeyMay(route))),
      ])(),
    ]);
    expect(Object.fromEntries(answers)).toEqual({
      ...Object.fromEntries(
        ROLES.map((role) => [role, rank(role) >= rank(lowest) ? 'allowed' : refusedFor(lowest)]),
      ),
      "the owner's read key": readKeyMay(route)
        ? 'allowed'
        : refusedFor(/\b(write|build)\b.*scope|scope.*\b(write|build)\b/),
    });
  });
});

describe('what a request targets', () => {
  let team: Awaited<ReturnType<typeof teamOfEveryRole>>;
  beforeAll(async () => {
    team = await teamOfEveryRole(gateway.baseUrl);
  }, 30_000);
  const send = (who: TestPerson, method: string, path: string, json?: unknown) =>
    call(`${gateway.baseUrl}${path.startsWith('/teams/') ? path : withTeam(path, team.teamId)}`, {
      method,
      key: who.key,
      ...(json === undefined ? {} : { json }),
    });
  const status = async (answer: Promise<JsonResponse>) => (await answer).status;
  const refusal = async (answer: Promise<JsonResponse>) => {
    const { status: code, body } = await answer;
    return { status: code, body };
  };
  const refusedNaming = (role: string) => ({
    status: 403,
    body: { error: 'forbidden', message: expect.stringMatching(new RegExp(`\\b${role}\\b`)) },
  });

  it("makes production variables an admin's: a developer writes preview and development ones only", async () => {
    const { owner, admin, developer } = team;
    const projectId = ((await send(owner, 'POST', '/projects', { name: 'vars' })).body as { id: string }).id;
    const env = `/projects/${projectId}/env`;
    const variable = async (targets: string[]) =>
      (
        (
          await send(owner, 'POST', env, {
            key: `K_${randomUUID().slice(0, 6).toUpperCase()}`,
            value: 'v',
            targets,
          })
        ).body as { id: string }
      ).id;
    // One after the other: a project's variables change one request at a time.
    const productionOne = await variable(['production']);
    const previewOne = await variable(['preview']);

    expect({
      create: await refusal(send(developer, 'POST', env, { key: 'P', value: 'v', targets: ['production'] })),
      // Without targets a variable is for every target, production too.
      createForEveryTarget: await refusal(send(developer, 'POST', env, { key: 'Q', value: 'v' })),
      change: await refusal(send(developer, 'PATCH', `${env}/${productionOne}`, { value: 'changed' })),
      moveToProduction: await refusal(
        send(developer, 'PATCH', `${env}/${previewOne}`, { targets: ['production'] }),
      ),
      remove: await refusal(send(developer, 'DELETE', `${env}/${productionOne}`)),
      // The set it replaces holds a production variable, though the new one has none.
      replace: await refusal(
        send(developer, 'PUT', env, { variables: [{ key: 'R', value: 'v', targets: ['preview'] }] }),
      ),
    }).toEqual({
      create: refusedNaming('admin'),
      createForEveryTarget: refusedNaming('admin'),
      change: refusedNaming('admin'),
      moveToProduction: refusedNaming('admin'),
      remove: refusedNaming('admin'),
      replace: refusedNaming('admin'),
    });
    expect({
      developerPreview: await status(
        send(developer, 'POST', env, { key: 'D', value: 'v', targets: ['preview', 'development'] }),
      ),
      developerChangesPreview: await status(
        send(developer, 'PATCH', `${env}/${previewOne}`, { value: 'changed' }),
      ),
      adminProduction: await status(
        send(admin, 'POST', env, { key: 'A', value: 'v', targets: ['production'] }),
      ),
      adminChangesProduction: await status(
        send(admin, 'PATCH', `${env}/${productionOne}`, { value: 'changed' }),
      ),
      adminRemovesProduction: await status(send(admin, 'DELETE', `${env}/${productionOne}`)),
    }).toEqual({
      developerPreview: 201,
      developerChangesPreview: 200,
      adminProduction: 201,
      adminChangesProduction: 200,
      adminRemovesProduction: 204,
    });
  });

  it('lets only owners make or remove owners; admins manage members up to admin', async () => {
    const { teamId, owner, admin } = team;
    const [first, second] = await Promise.all([newPerson('First'), newPerson('Second')]);
    await Promise.all([
      join(gateway.baseUrl, teamId, owner, first, 'developer'),
      join(gateway.baseUrl, teamId, owner, second, 'developer'),
    ]);
    const members = `/teams/${teamId}/members`;
    expect({
      adminMakesOwner: await refusal(send(admin, 'PATCH', `${members}/${first.userId}`, { role: 'owner' })),
      adminDemotesOwner: await refusal(send(admin, 'PATCH', `${members}/${owner.userId}`, { role: 'admin' })),
      adminRemovesOwner: await refusal(send(admin, 'DELETE', `${members}/${owner.userId}`)),
      adminInvitesOwner: await refusal(
        send(admin, 'POST', `/teams/${teamId}/invitations`, {
          email: `${randomUUID()}@example.test`,
          role: 'owner',
        }),
      ),
    }).toEqual({
      adminMakesOwner: refusedNaming('owner'),
      adminDemotesOwner: refusedNaming('owner'),
      adminRemovesOwner: refusedNaming('owner'),
      adminInvitesOwner: {
        status: 403,
        body: { error: 'forbidden', message: expect.stringMatching(/\badmin\b/) },
      },
    });
    expect({
      adminMakesAdmin: await status(send(admin, 'PATCH', `${members}/${first.userId}`, { role: 'admin' })),
      ownerMakesOwner: await status(send(owner, 'PATCH', `${members}/${second.userId}`, { role: 'owner' })),
      // `first` is an admin now: an admin may not remove an owner, but may remove an admin.
      adminRemovesSecondOwner: await refusal(send(admin, 'DELETE', `${members}/${second.userId}`)),
      adminRemovesAdmin: await status(send(admin, 'DELETE', `${members}/${first.userId}`)),
      ownerRemovesOwner: await status(send(owner, 'DELETE', `${members}/${second.userId}`)),
    }).toEqual({
      adminMakesAdmin: 200,
      ownerMakesOwner: 200,
      adminRemovesSecondOwner: refusedNaming('owner'),
      adminRemovesAdmin: 204,
      ownerRemovesOwner: 204,
    });
  });

  it('lets any member leave, after which the team is 404 to them', async () => {
    const { teamId, viewer } = team;
    expect(await status(send(viewer, 'DELETE', `/teams/${teamId}/members/${viewer.userId}`))).toBe(204);
    expect(await refusal(send(viewer, 'GET', `/teams/${teamId}`))).toEqual({
      status: 404,
      body: { error: 'not_found', message: expect.any(String) },
    });
  });
});

describe("a production deployment's build environment", () => {
  it("is production's secrets: a developer's build key is refused it (403, the read not recorded), an admin's reads it, and previews stay a developer's", async () => {
    const { teamId, owner, admin, developer } = await teamOfEveryRole(gateway.baseUrl);
    const inTeam = (path: string) =>
      `${gateway.baseUrl}${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;
    const made = async (key: string, path: string, json: unknown) => {
      const response = await call(inTeam(path), { method: 'POST', key, json });
      expect([path, response.status]).toEqual([path, 201]);
      return response.body as { id: string; apiKey: string };
    };
    const buildKeyOf = async (person: TestPerson) =>
      (
        await call(`${gateway.baseUrl}/keys`, {
          method: 'POST',
          key: person.key,
          json: { name: 'ci', scopes: ['build'] },
        })
      ).body as { apiKey: string };
    const projectId = (await made(owner.key, '/projects', { name: 'secrets' })).id;
    await made(owner.key, `/projects/${projectId}/env`, {
      key: 'DB_PASSWORD',
      value: 'prod-secret',
      type: 'secret',
      targets: ['production'],
    });
    await made(owner.key, `/projects/${projectId}/env`, {
      key: 'PREVIEW_ONLY',
      value: 'p',
      targets: ['preview'],
    });
    const production = (await made(developer.key, '/deployments', { projectId })).id;
    const preview = (await made(developer.key, '/deployments', { projectId, branch: 'feature' })).id;
    const [developersBuild, adminsBuild] = await Promise.all([buildKeyOf(developer), buildKeyOf(admin)]);
    const buildEnv = (key: string, id: string) => call(inTeam(`/deployments/${id}/build-env`), { key });

    const refused = await buildEnv(developersBuild.apiKey, production);
    expect([refused.status, refused.body]).toEqual([
      403,
      { error: 'forbidden', message: expect.stringContaining('production deployment') },
    ]);
    expect(refused.text).not.toContain('prod-secret');
    expect((await buildEnv(developersBuild.apiKey, preview)).body).toEqual({
      variables: { PREVIEW_ONLY: 'p' },
      target: 'preview',
    });
    expect((await buildEnv(adminsBuild.apiKey, production)).body).toEqual({
      variables: { DB_PASSWORD: 'prod-secret' },
      target: 'production',
    });
    const events = (await call(inTeam(`/deployments/${production}/events`), { key: owner.key })).body as {
      events: { type?: string; status?: string }[];
    };
    expect(events.events.map((event) => event.status ?? event.type)).toEqual(['queued', 'build-env-read']);
  });
});
