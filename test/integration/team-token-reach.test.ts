import { randomUUID } from 'node:crypto';
import { newId } from '#shared/model/ids.ts';
import { actsInTeam, type EndpointRoute, routes, takesIdempotencyKey } from '#shared/routes.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGatewayDroppingDeliveries } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// A team token limited to one project, route by route: every row that acts in a team, from the route
// table, answers as docs/teams.md ("Team tokens") says. Another project of the same team, and its
// deployments, variables and domains, are the 404 of unknown ones while the token's own project is
// reached; lists show its project only; what spans the team (creating a project, webhooks) is 403;
// it never manages the team; reading the team and its members is not managing them. The expectations
// are written here from the docs' words: a row without one fails the first test.

const EXPECTED = {
  anotherProjectIsUnknown: '404 for another project (or what is in it) as for an unknown one',
  listsItsProjectOnly: 'lists show its project only',
  spansTheTeam: '403: spans every project of the team',
  managesTheTeam: '403: a token never manages the team',
  personsOwn: "403: a person's own keys, not a team's",
  readsTheTeam: '200: reading the team is not managing it',
} as const;
type Expected = keyof typeof EXPECTED;

const ROWS: Readonly<Record<string, Expected>> = {
  'GET /projects': 'listsItsProjectOnly',
  'POST /projects': 'spansTheTeam',
  'GET /projects/{id}': 'anotherProjectIsUnknown',
  'PATCH /projects/{id}': 'anotherProjectIsUnknown',
  'DELETE /projects/{id}': 'anotherProjectIsUnknown',
  'GET /projects/{id}/deployments': 'anotherProjectIsUnknown',
  'POST /projects/{id}/promote': 'anotherProjectIsUnknown',
  'POST /projects/{id}/rollback': 'anotherProjectIsUnknown',
  'GET /projects/{id}/production-history': 'anotherProjectIsUnknown',
  'GET /projects/{id}/domains': 'anotherProjectIsUnknown',
  'POST /projects/{id}/domains': 'anotherProjectIsUnknown',
  'GET /projects/{id}/domains/{name}': 'anotherProjectIsUnknown',
  'DELETE /projects/{id}/domains/{name}': 'anotherProjectIsUnknown',
  'POST /projects/{id}/domains/{name}/verify': 'anotherProjectIsUnknown',
  'GET /projects/{id}/env': 'anotherProjectIsUnknown',
  'POST /projects/{id}/env': 'anotherProjectIsUnknown',
  'PUT /projects/{id}/env': 'anotherProjectIsUnknown',
  'PATCH /projects/{id}/env/{envId}': 'anotherProjectIsUnknown',
  'DELETE /projects/{id}/env/{envId}': 'anotherProjectIsUnknown',
  'POST /deployments': 'anotherProjectIsUnknown',
  'GET /deployments': 'listsItsProjectOnly',
  'POST /deployments/{id}/events': 'anotherProjectIsUnknown',
  'GET /deployments/{id}/events': 'anotherProjectIsUnknown',
  'POST /deployments/{id}/logs': 'anotherProjectIsUnknown',
  'GET /deployments/{id}/logs': 'anotherProjectIsUnknown',
  'POST /deployments/{id}/cancel': 'anotherProjectIsUnknown',
  'GET /deployments/{id}/build-env': 'anotherProjectIsUnknown',
  'GET /deployments/{id}/wait': 'anotherProjectIsUnknown',
  'GET /deployments/{id}': 'anotherProjectIsUnknown',
  'GET /keys': 'personsOwn',
  'POST /keys': 'personsOwn',
  'DELETE /keys/{id}': 'personsOwn',
  'GET /webhooks': 'spansTheTeam',
  'POST /webhooks': 'spansTheTeam',
  'GET /webhooks/{id}': 'spansTheTeam',
  'PATCH /webhooks/{id}': 'spansTheTeam',
  'DELETE /webhooks/{id}': 'spansTheTeam',
  'POST /webhooks/{id}/test': 'spansTheTeam',
  'GET /webhooks/{id}/deliveries': 'spansTheTeam',
  'GET /teams/{teamId}': 'readsTheTeam',
  'PATCH /teams/{teamId}': 'managesTheTeam',
  'DELETE /teams/{teamId}': 'managesTheTeam',
  'GET /teams/{teamId}/members': 'readsTheTeam',
  'PATCH /teams/{teamId}/members/{userId}': 'managesTheTeam',
  'DELETE /teams/{teamId}/members/{userId}': 'managesTheTeam',
  'POST /teams/{teamId}/invitations': 'managesTheTeam',
  'GET /teams/{teamId}/invitations': 'managesTheTeam',
  'DELETE /teams/{teamId}/invitations/{id}': 'managesTheTeam',
  'POST /teams/{teamId}/tokens': 'managesTheTeam',
  'GET /teams/{teamId}/tokens': 'managesTheTeam',
  'DELETE /teams/{teamId}/tokens/{id}': 'managesTheTeam',
  'GET /teams/{teamId}/audit-events': 'managesTheTeam',
};

const nameOf = (route: EndpointRoute): string => `${route.method} ${route.path}`;
const teamRows = routes.filter(actsInTeam);
const rowsExpecting = (expected: Expected): string[] =>
  teamRows.map(nameOf).filter((name) => ROWS[name] === expected);
const rowNamed = (name: string): EndpointRoute => {
  const route = teamRows.find((row) => nameOf(row) === name);
  if (!route) throw new Error(`${name}: no such row`);
  return route;
};

/** A project's things, by what names them in a request. */
interface Things {
  project: string;
  deployment: string;
  variable: string;
  domain: string;
}

const freeDomainName = (): string => `reach-${randomUUID().slice(0, 12)}.example.com`;

/** Ids of the same shapes that name nothing. */
const unknownThings = (): Things => ({
  project: newId('prj'),
  deployment: newId('dpl'),
  variable: newId('env'),
  domain: freeDomainName(),
});

/** A row's path and body naming `things` (a row that names none of them throws: add it here). */
function requestOf(route: EndpointRoute, things: Things): { path: string; json?: unknown } {
  const path = route.path.replace(/\{(\w+)\}/g, (_whole, parameter: string) => {
    if (parameter === 'envId') return things.variable;
    if (parameter === 'name') return things.domain;
    if (parameter === 'id' && route.path.startsWith('/projects/')) return things.project;
    if (parameter === 'id' && route.path.startsWith('/deployments/')) return things.deployment;
    throw new Error(`${nameOf(route)}: no case for {${parameter}}; add one to this file`);
  });
  const bodies: Record<string, unknown> = {
    'PATCH /projects/{id}': { name: 'renamed' },
    'POST /projects/{id}/promote': { deploymentId: things.deployment },
    'POST /projects/{id}/rollback': { deploymentId: things.deployment },
    'POST /projects/{id}/domains': { name: freeDomainName() },
    'POST /projects/{id}/env': { key: 'ADDED', value: 'v', targets: ['preview'] },
    'PUT /projects/{id}/env': { variables: [] },
    'PATCH /projects/{id}/env/{envId}': { value: 'changed' },
    'POST /deployments': { projectId: things.project },
    'POST /deployments/{id}/events': { status: 'building' },
    'POST /deployments/{id}/logs': { lines: [{ text: 'a line' }] },
  };
  const queries: Record<string, string> = { 'GET /deployments/{id}/wait': '?status=queued' };
  const name = nameOf(route);
  if (route.request?.body !== undefined && !(name in bodies))
    throw new Error(`${name}: no body in this file; add one`);
  return { path: `${path}${queries[name] ?? ''}`, ...(name in bodies ? { json: bodies[name] } : {}) };
}

let gateway: TestGateway;
beforeAll(async () => {
  // Deliveries are not what this file is about.
  gateway = await startGatewayDroppingDeliveries();
});
afterAll(() => gateway.close());

async function send(
  key: string,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
) {
  return call(`${gateway.baseUrl}${path}`, { method, key, headers, ...(json === undefined ? {} : { json }) });
}

describe('a team token limited to one project, on every route that acts in a team', () => {
  let owner: TestPerson;
  let teamId: string;
  /** Things of the team that its management routes name. */
  let team: { webhook: string; invitation: string; token: string; member: string; key: string };

  /** A request of the owner's in the team that must succeed; its body. */
  async function owners(path: string, json: unknown) {
    const response = await send(owner.key, 'POST', path, json);
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
    return response.body as { id: string; name: string; apiKey: string; token: { id: string } };
  }

  /** A webhook of the team's; its id. */
  const webhook = async (): Promise<string> =>
    (
      (await owners(`/webhooks?teamId=${teamId}`, {
        url: 'https://203.0.113.80/reach',
        events: ['*'],
      })) as unknown as {
        webhook: { id: string };
      }
    ).webhook.id;

  /** A project of the team with a (queued) deployment, a preview variable and a domain. */
  async function projectWithThings(): Promise<Things> {
    const project = (await owners(`/projects?teamId=${teamId}`, { name: 'reach' })).id;
    const [deployment, variable, domain] = await Promise.all([
      owners(`/deployments?teamId=${teamId}`, { projectId: project }).then((made) => made.id),
      owners(`/projects/${project}/env?teamId=${teamId}`, {
        key: 'KEPT',
        value: 'v',
        targets: ['preview'],
      }).then((made) => made.id),
      owners(`/projects/${project}/domains?teamId=${teamId}`, { name: freeDomainName() }).then(
        (made) => made.name,
      ),
    ]);
    return { project, deployment, variable, domain };
  }

  /** A token of the team (read, write and build; both targets) limited to `projectIds` when given. */
  async function tokenFor(projectIds?: string[]): Promise<string> {
    const made = await owners(`/teams/${teamId}/tokens`, {
      name: 'ci',
      scopes: ['read', 'write', 'build'],
      expiresInDays: 1,
      ...(projectIds === undefined ? {} : { projectIds }),
    });
    spent.push(made.token.id);
    return made.apiKey;
  }
  /** Tokens made by the test running: revoked after it, as a team holds at most 20 at once. */
  const spent: string[] = [];
  afterEach(async () => {
    for (const id of spent.splice(0)) await send(owner.key, 'DELETE', `/teams/${teamId}/tokens/${id}`);
  });

  /** A fresh project of the team and a token limited to it. */
  async function limitedToOne(): Promise<{ a: Things; token: string }> {
    const a = await projectWithThings();
    return { a, token: await tokenFor([a.project]) };
  }

  /** That, and another project of the same team, with one of each thing, that the token does not reach. */
  async function andAnother(): Promise<{ a: Things; b: Things; token: string }> {
    const [limited, b] = await Promise.all([limitedToOne(), projectWithThings()]);
    return { ...limited, b };
  }

  /** The other project's things are as they were made: a refusal changed nothing. */
  async function expectUntouched(b: Things): Promise<void> {
    const read = async (path: string) => {
      const response = await send(owner.key, 'GET', `${path}?teamId=${teamId}`);
      expect([path, response.status]).toEqual([path, 200]);
      return response.body as Record<string, unknown>;
    };
    const [project, deployment, variables, domains, logs] = await Promise.all([
      read(`/projects/${b.project}`),
      read(`/deployments/${b.deployment}`),
      read(`/projects/${b.project}/env`),
      read(`/projects/${b.project}/domains`),
      read(`/deployments/${b.deployment}/logs`),
    ]);
    expect({
      project: project.name,
      deployment: deployment.status,
      variables: (variables.variables as { id: string; value: string }[]).map(({ id, value }) => [id, value]),
      domains: (domains.domains as { name: string }[]).map(({ name }) => name),
      logs: logs.lines,
    }).toEqual({
      project: 'reach',
      deployment: 'queued',
      variables: [[b.variable, 'v']],
      domains: [b.domain],
      logs: [],
    });
  }

  beforeAll(async () => {
    owner = await newPerson('Owner', { rateLimit: 100_000 });
    teamId = await newTeam(gateway.baseUrl, owner, 'Reach');
    const bystander = await newPerson('Dev');
    await join(gateway.baseUrl, teamId, owner, bystander, 'developer');
    const [webhookId, invitation, token] = await Promise.all([
      webhook(),
      owners(`/teams/${teamId}/invitations`, { email: `${randomUUID()}@example.test`, role: 'viewer' }),
      owners(`/teams/${teamId}/tokens`, { name: 'other', scopes: ['read'], expiresInDays: 1 }),
    ]);
    const key = await send(bystander.key, 'POST', '/keys', { name: 'theirs' });
    team = {
      webhook: webhookId,
      invitation: invitation.id,
      token: token.token.id,
      member: bystander.userId,
      key: (key.body as { key: { id: string } }).key.id,
    };
  }, 60_000);

  it('has an expectation for every row that acts in a team, and none for a row that is gone', () => {
    const names = teamRows.map(nameOf);
    expect(names.filter((name) => ROWS[name] === undefined)).toEqual([]);
    expect(Object.keys(ROWS).filter((name) => !names.includes(name))).toEqual([]);
  });

  it.each(rowsExpecting('anotherProjectIsUnknown'))(
    "%s: another project's is 404 as an unknown one; its own project's is reached",
    async (name) => {
      const route = rowNamed(name);
      const { a, b, token } = await andAnother();
      const unknown = unknownThings();
      /** The answer, each id it was sent with put as its name: answers that differ only in ids compare equal. */
      const ask = async (things: Things) => {
        const { path, json } = requestOf(route, things);
        const response = await send(token, route.method, path, json);
        let text = response.text;
        for (const [thing, id] of Object.entries(things)) text = text.replaceAll(id, `{${thing}}`);
        return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
      };
      const notFound = { status: 404, body: { error: 'not_found', message: expect.any(String) } };
      // Another project of the team, and (where the row names something in a project) another
      // project's thing asked for under its own project.
      const [theirs, asUnknown] = await Promise.all([ask(b), ask(unknown)]);
      expect(theirs).toEqual(asUnknown);
      expect(theirs).toEqual(notFound);
      const inside = { ...b, project: a.project };
      const insideNamed = JSON.stringify(requestOf(route, inside));
      if (
        route.path.startsWith('/projects/') &&
        [b.deployment, b.variable, b.domain].some((id) => insideNamed.includes(id))
      ) {
        const [mixed, mixedUnknown] = await Promise.all([
          ask(inside),
          ask({ ...unknown, project: a.project }),
        ]);
        expect(mixed).toEqual(mixedUnknown);
        expect(mixed).toEqual(notFound);
      }
      // The same request about its own project gets past the lookup: what answered 404 was the limit.
      const own = await ask(a);
      expect([name, own.status]).toEqual([name, expect.any(Number)]);
      expect(own.status).not.toBe(404);
      expect(own.status).toBeLessThan(500);
      await expectUntouched(b);
    },
  );

  it("names none of another project's things through a body or a filter", async () => {
    const { b, token } = await andAnother();
    const unknown = unknownThings();
    const ask = async (things: Things) => {
      const answers = await Promise.all([
        send(token, 'POST', '/deployments', { redeployOf: things.deployment }),
        send(token, 'GET', `/deployments?projectId=${things.project}`),
      ]);
      return answers.map((response) => {
        let text = response.text;
        for (const [thing, id] of Object.entries(things)) text = text.replaceAll(id, `{${thing}}`);
        return { status: response.status, body: JSON.parse(text) as unknown };
      });
    };
    const [theirs, asUnknown] = await Promise.all([ask(b), ask(unknown)]);
    expect(theirs).toEqual(asUnknown);
    expect(theirs.map((answer) => answer.status)).toEqual([404, 404]);
    await expectUntouched(b);
  });

  it('GET /projects and GET /deployments list its project only', async () => {
    expect(rowsExpecting('listsItsProjectOnly')).toEqual(['GET /projects', 'GET /deployments']);
    const { a, b, token } = await andAnother();
    const projects = await send(token, 'GET', '/projects');
    expect(projects.status).toBe(200);
    expect((projects.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual([a.project]);
    const deployments = await send(token, 'GET', '/deployments');
    expect(deployments.status).toBe(200);
    expect(
      (deployments.body as { deployments: { id: string; projectId: string }[] }).deployments.map((d) => [
        d.id,
        d.projectId,
      ]),
    ).toEqual([[a.deployment, a.project]]);
    // The owner, in the same team, sees the other project too: the filter is the token's.
    const everyone = await send(owner.key, 'GET', `/projects?teamId=${teamId}&limit=100`);
    expect((everyone.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual(
      expect.arrayContaining([a.project, b.project]),
    );
  });

  /** The request each row that spans or manages the team makes, naming the team's own things. */
  const teamRequests: Readonly<Record<string, () => { path: string; json?: unknown }>> = {
    'POST /projects': () => ({ path: '/projects', json: { name: 'another' } }),
    'GET /webhooks': () => ({ path: '/webhooks' }),
    'POST /webhooks': () => ({
      path: '/webhooks',
      json: { url: 'https://203.0.113.80/more', events: ['*'] },
    }),
    'GET /webhooks/{id}': () => ({ path: `/webhooks/${team.webhook}` }),
    'PATCH /webhooks/{id}': () => ({ path: `/webhooks/${team.webhook}`, json: { description: 'changed' } }),
    'DELETE /webhooks/{id}': () => ({ path: `/webhooks/${team.webhook}` }),
    'POST /webhooks/{id}/test': () => ({ path: `/webhooks/${team.webhook}/test` }),
    'GET /webhooks/{id}/deliveries': () => ({ path: `/webhooks/${team.webhook}/deliveries` }),
    'GET /keys': () => ({ path: '/keys' }),
    'POST /keys': () => ({ path: '/keys', json: { name: 'more' } }),
    'DELETE /keys/{id}': () => ({ path: `/keys/${team.key}` }),
    'GET /teams/{teamId}': () => ({ path: `/teams/${teamId}` }),
    'PATCH /teams/{teamId}': () => ({ path: `/teams/${teamId}`, json: { name: 'Taken' } }),
    'DELETE /teams/{teamId}': () => ({ path: `/teams/${teamId}` }),
    'GET /teams/{teamId}/members': () => ({ path: `/teams/${teamId}/members` }),
    'PATCH /teams/{teamId}/members/{userId}': () => ({
      path: `/teams/${teamId}/members/${team.member}`,
      json: { role: 'admin' },
    }),
    'DELETE /teams/{teamId}/members/{userId}': () => ({ path: `/teams/${teamId}/members/${team.member}` }),
    'POST /teams/{teamId}/invitations': () => ({
      path: `/teams/${teamId}/invitations`,
      json: { email: `${randomUUID()}@example.test`, role: 'viewer' },
    }),
    'GET /teams/{teamId}/invitations': () => ({ path: `/teams/${teamId}/invitations` }),
    'DELETE /teams/{teamId}/invitations/{id}': () => ({
      path: `/teams/${teamId}/invitations/${team.invitation}`,
    }),
    'POST /teams/{teamId}/tokens': () => ({
      path: `/teams/${teamId}/tokens`,
      json: { name: 'more', scopes: ['read'], expiresInDays: 1 },
    }),
    'GET /teams/{teamId}/tokens': () => ({ path: `/teams/${teamId}/tokens` }),
    'DELETE /teams/{teamId}/tokens/{id}': () => ({ path: `/teams/${teamId}/tokens/${team.token}` }),
    'GET /teams/{teamId}/audit-events': () => ({ path: `/teams/${teamId}/audit-events` }),
  };
  const teamRequest = (name: string) => {
    const made = teamRequests[name];
    if (!made) throw new Error(`${name}: no request in this file; add one`);
    return made();
  };

  it.each(rowsExpecting('spansTheTeam'))(
    '%s: 403, as it spans every project of the team (a token of every project may)',
    async (name) => {
      const route = rowNamed(name);
      const { path, json } = teamRequest(name);
      const limited = await send((await limitedToOne()).token, route.method, path, json);
      expect([name, limited.status, limited.body]).toEqual([
        name,
        403,
        { error: 'forbidden', message: expect.stringContaining('limited to some projects') },
      ]);
      // Run after the refusal (a DELETE spends the webhook): a token of the whole team gets past it.
      const whole = await send(await tokenFor(), route.method, path, json);
      expect([name, whole.status]).toEqual([name, expect.any(Number)]);
      expect(whole.status).toBeLessThan(300);
      if (route.method === 'DELETE') team.webhook = await webhook();
    },
  );

  /** What a token's refusal says, by why it is refused. */
  const refusals = { managesTheTeam: 'never manages', personsOwn: 'not as a person' } as const;
  it.each(
    (['managesTheTeam', 'personsOwn'] as const).flatMap((why) =>
      rowsExpecting(why).map((name) => [name, why] as const),
    ),
  )('%s: 403 (%s)', async (name, why) => {
    const route = rowNamed(name);
    const { path, json } = teamRequest(name);
    const answer = await send((await limitedToOne()).token, route.method, path, json);
    expect([name, answer.status, answer.body]).toEqual([
      name,
      403,
      { error: 'forbidden', message: expect.stringContaining(refusals[why]) },
    ]);
  });

  // A replay belongs to the credential that made the first request: another token of the same team,
  // sending the same Idempotency-Key and body, gets what it would get on its own, never the first
  // answer (a webhook's signing secret, a deployment of a project it cannot see).
  const replayRows = teamRows
    .filter(takesIdempotencyKey)
    .map(nameOf)
    .filter((name) => ROWS[name] === 'anotherProjectIsUnknown' || ROWS[name] === 'spansTheTeam');
  it.each(replayRows)(
    '%s: sent with the Idempotency-Key and body a token of the whole team used, the limited token gets its own answer',
    async (name) => {
      const route = rowNamed(name);
      const { b, token } = await andAnother();
      const request = ROWS[name] === 'spansTheTeam' ? teamRequest(name) : requestOf(route, b);
      const idempotencyKey = randomUUID();
      const sendAs = (key: string, idempotency: string) =>
        send(key, route.method, request.path, request.json, { 'Idempotency-Key': idempotency });
      const first = await sendAs(await tokenFor(), idempotencyKey);
      expect([name, first.status]).toEqual([name, expect.any(Number)]);
      expect(first.status).toBeLessThan(500);
      const [again, own] = await Promise.all([sendAs(token, idempotencyKey), sendAs(token, randomUUID())]);
      expect([name, again.headers.get('idempotency-replayed')]).toEqual([name, null]);
      expect({ status: again.status, body: again.body }).toEqual({ status: own.status, body: own.body });
      expect(again.status).toBe(ROWS[name] === 'spansTheTeam' ? 403 : 404);
    },
  );

  it.each(rowsExpecting('readsTheTeam'))('%s: 200, reading the team', async (name) => {
    const route = rowNamed(name);
    const { path } = teamRequest(name);
    const answer = await send((await limitedToOne()).token, route.method, path);
    expect([name, answer.status]).toEqual([name, 200]);
  });
});
