import { randomUUID } from 'node:crypto';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import { type IdPrefix, newId } from '#shared/model/ids.ts';
import { actsInTeam, type EndpointRoute, routes } from '#shared/routes.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// BOLA across teams, on every versioned route that names something by id: a member of team A asking
// for team B's things, with ?teamId=A, with ?teamId=B (a team they are not in) and without a team,
// gets the 404 an unknown id gets, the same body but for the id it names. Lists and creations in a
// team they are not in are 404 too, and ids of B's named in a body in A are unknown there. The rows
// come from shared/routes.ts: a new route whose ids or body this file cannot fill fails it.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const nameOf = (route: EndpointRoute): string => `${route.method} ${route.path}`;
const versioned = routes.filter(actsInTeam);
const ID = /\{(\w+)\}/g;
const takesIds = versioned.filter((route) => route.path.includes('{'));
const takesNoIds = versioned.filter((route) => !route.path.includes('{'));

/** What B has, by what names it in a path. */
interface Things {
  team: string;
  project: string;
  deployment: string;
  variable: string;
  webhook: string;
  invitation: string;
  member: string;
  key: string;
  token: string;
  domain: string;
}

/** The thing a path's id names: by its parameter, and `{id}` by the collection before it. */
function idFor(route: EndpointRoute, parameter: string, things: Things): string {
  const collection = route.path.split('/').at(route.path.split('/').indexOf(`{${parameter}}`) - 1);
  const byCollection: Record<string, keyof Things> = {
    projects: 'project',
    deployments: 'deployment',
    webhooks: 'webhook',
    keys: 'key',
    invitations: 'invitation',
    tokens: 'token',
  };
  const byParameter: Record<string, keyof Things> = {
    teamId: 'team',
    envId: 'variable',
    userId: 'member',
    name: 'domain',
  };
  const which = parameter === 'id' ? byCollection[collection ?? ''] : byParameter[parameter];
  if (!which) throw new Error(`${nameOf(route)}: no case for {${parameter}}; add one to this file`);
  return things[which];
}

/** Unknown ids of the same shape as B's. */
function unknownLike(things: Things): Things {
  // A domain's name is its id: an unknown one is a name no one holds.
  const like = (id: string) =>
    id.includes('.')
      ? `unknown-${randomUUID().slice(0, 8)}.example.com`
      : newId(id.slice(0, id.indexOf('_')) as IdPrefix);
  return Object.fromEntries(
    Object.entries(things).map(([name, id]) => [name, like(id)]),
  ) as unknown as Things;
}

/** Bodies that pass validation, so that what answers is the lookup; B's ids where a body names one. */
const bodyOf = (route: EndpointRoute, things: Things): unknown => {
  const bodies: Record<string, unknown> = {
    'PATCH /projects/{id}': { name: 'taken' },
    'POST /projects/{id}/promote': { deploymentId: things.deployment },
    'POST /projects/{id}/rollback': {},
    'POST /projects/{id}/env': { key: 'TAKEN', value: 'v', targets: ['preview'] },
    'PUT /projects/{id}/env': { variables: [] },
    'PATCH /projects/{id}/env/{envId}': { value: 'taken' },
    'POST /deployments/{id}/events': { status: 'building' },
    'POST /deployments/{id}/logs': { lines: [{ text: 'taken' }] },
    'PATCH /webhooks/{id}': { description: 'taken' },
    'PATCH /teams/{teamId}': { name: 'Taken' },
    'PATCH /teams/{teamId}/members/{userId}': { role: 'viewer' },
    'POST /teams/{teamId}/invitations': { email: `${randomUUID()}@example.test`, role: 'viewer' },
    'POST /teams/{teamId}/tokens': { name: 'taken', scopes: ['read'], expiresInDays: 1 },
    'POST /projects/{id}/domains': { name: `taken-${randomUUID().slice(0, 8)}.example.com` },
  };
  const name = nameOf(route);
  if (route.request?.body === undefined) return undefined;
  if (!(name in bodies)) throw new Error(`${name}: no body in this file; add one`);
  return bodies[name];
};

/** Bodies of the rows that name no id in their path. */
const bodyWithoutId = (route: EndpointRoute, things: Things): unknown => {
  const bodies: Record<string, unknown> = {
    'POST /projects': { name: 'taken' },
    'POST /deployments': { projectId: things.project },
    'POST /keys': { name: 'taken' },
    'POST /webhooks': { url: 'https://203.0.113.80/taken', events: ['*'] },
  };
  const name = nameOf(route);
  if (route.request?.body === undefined) return undefined;
  if (!(name in bodies)) throw new Error(`${name}: no body in this file; add one`);
  return bodies[name];
};

/** Queries a row needs besides the team. */
const QUERIES: Record<string, string> = { 'GET /deployments/{id}/wait': 'status=queued' };

describe('BOLA across teams', () => {
  /** A member (the owner) of team A, with a key that may do everything, `build` included. */
  let caller: TestPerson;
  let teamA: string;
  let bob: TestPerson;
  let b: Things;

  beforeAll(async () => {
    [caller, bob] = await Promise.all([
      newPerson('Caller', { scopes: ['read', 'write', 'build'], rateLimit: 100_000 }),
      newPerson('Bob', { rateLimit: 100_000 }),
    ]);
    const [a, team] = await Promise.all([
      newTeam(gateway.baseUrl, caller, 'A'),
      newTeam(gateway.baseUrl, bob, 'B'),
    ]);
    teamA = a;
    const inB = (path: string, json: unknown) =>
      call(`${gateway.baseUrl}${path}${path.includes('?') ? '&' : '?'}teamId=${team}`, {
        method: 'POST',
        key: bob.key,
        json,
      }).then((response) => {
        if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
        return response.body as { id: string; webhook?: { id: string } };
      });
    const project = (await inB('/projects', { name: 'b' })).id;
    const [deployment, variable, webhook, invitation] = await Promise.all([
      inB('/deployments', { projectId: project }).then((made) => made.id),
      inB(`/projects/${project}/env`, { key: 'B_ONLY', value: 'b', targets: ['preview'] }).then(
        (made) => made.id,
      ),
      inB('/webhooks', { url: 'https://203.0.113.80/b', events: ['*'] }).then(
        (made) => made.webhook?.id ?? '',
      ),
      inB(`/teams/${team}/invitations`, { email: `${randomUUID()}@example.test`, role: 'viewer' }).then(
        (made) => made.id,
      ),
    ]);
    // A key of Bob's: ids of keys are one user's, whichever team a request acts in.
    const key = (await issueApiKey({ userId: bob.userId, role: 'member', name: 'b' })).key.id;
    const token = await call(`${gateway.baseUrl}/teams/${team}/tokens`, {
      method: 'POST',
      key: bob.key,
      json: { name: 'b', scopes: ['read'], expiresInDays: 1 },
    });
    const domain = await inB(`/projects/${project}/domains`, {
      name: `b-${randomUUID().slice(0, 8)}.example.com`,
    });
    b = {
      domain: (domain as unknown as { name: string }).name,
      team,
      project,
      deployment,
      variable,
      webhook,
      invitation,
      member: bob.userId,
      key,
      token: (token.body as { token: { id: string } }).token.id,
    };
  }, 60_000);

  /**
   * The row's answer with the ids of `things`, acting in `team` (undefined: no `teamId`), each id it
   * was sent with put as its name: two answers that differ only in the ids asked for compare equal.
   */
  async function ask(route: EndpointRoute, things: Things, team: string | undefined) {
    const path = route.path.replace(ID, (_whole, parameter: string) =>
      parameter === 'teamId' ? (team ?? '') : idFor(route, parameter, things),
    );
    const query = [QUERIES[nameOf(route)], route.team !== 'path' && team ? `teamId=${team}` : undefined]
      .filter(Boolean)
      .join('&');
    const body = bodyOf(route, things);
    const response = await call(`${gateway.baseUrl}${path}${query ? `?${query}` : ''}`, {
      method: route.method,
      key: caller.key,
      ...(body === undefined ? {} : { json: body }),
    });
    let text = response.text;
    for (const [name, id] of [['actingTeam', team ?? '-'], ...Object.entries(things)])
      text = text.replaceAll(id, `{${name}}`);
    return { status: response.status, body: JSON.parse(text) as unknown };
  }

  it('has a case for every route that takes an id', () => {
    const unknown = unknownLike(b);
    for (const route of takesIds) {
      expect(() =>
        [...route.path.matchAll(ID)].map(([, parameter = '']) => idFor(route, parameter, unknown)),
      ).not.toThrow();
      expect(() => bodyOf(route, unknown)).not.toThrow();
    }
  });

  it.each(takesIds.map(nameOf))("%s: B's ids are 404 to a member of A, as unknown ones", async (name) => {
    const route = takesIds.find((row) => nameOf(row) === name);
    if (!route) throw new Error(name);
    const unknown = unknownLike(b);
    const unknownTeam = newId('team');
    // Each case: B's thing asked for, and what an unknown one answers in its place.
    const cases: Record<string, [Promise<unknown>, Promise<unknown>]> = {};
    if (route.team !== 'path') {
      cases['in A'] = [ask(route, b, teamA), ask(route, unknown, teamA)];
      cases['in B'] = [ask(route, b, b.team), ask(route, b, unknownTeam)];
      cases['in their personal team'] = [ask(route, b, undefined), ask(route, unknown, undefined)];
    } else {
      // B's things under A's own path, where the row names one besides the team...
      if ([...route.path.matchAll(ID)].length > 1)
        cases['in A'] = [
          ask(route, { ...b, team: teamA }, teamA),
          ask(route, { ...unknown, team: teamA }, teamA),
        ];
      // ...and B's path itself, B being a team the caller is not in.
      cases['in B'] = [ask(route, b, b.team), ask(route, { ...b, team: unknownTeam }, unknownTeam)];
    }
    const answers = Object.fromEntries(
      await Promise.all(
        Object.entries(cases).map(async ([label, pair]) => [label, await Promise.all(pair)] as const),
      ),
    );
    expect(Object.fromEntries(Object.entries(answers).map(([label, [theirs]]) => [label, theirs]))).toEqual(
      Object.fromEntries(Object.entries(answers).map(([label, [, asUnknown]]) => [label, asUnknown])),
    );
    for (const [, [theirs]] of Object.values(answers).entries())
      expect(theirs).toEqual({ status: 404, body: { error: 'not_found', message: expect.any(String) } });
  });

  it.each(takesNoIds.map(nameOf))(
    '%s in B, a team the caller is not in: 404, as in an unknown team',
    async (name) => {
      const route = takesNoIds.find((row) => nameOf(row) === name);
      if (!route) throw new Error(name);
      const unknownTeam = newId('team');
      const inTeam = async (team: string) => {
        const body = bodyWithoutId(route, b);
        const response = await call(`${gateway.baseUrl}${route.path}?teamId=${team}`, {
          method: route.method,
          key: caller.key,
          ...(body === undefined ? {} : { json: body }),
        });
        return {
          status: response.status,
          body: JSON.parse(response.text.replaceAll(team, '{team}')) as unknown,
        };
      };
      const [theirs, unknown] = await Promise.all([inTeam(b.team), inTeam(unknownTeam)]);
      expect(theirs).toEqual(unknown);
      expect(theirs).toEqual({ status: 404, body: { error: 'not_found', message: expect.any(String) } });
    },
  );

  it("names none of B's things from A or from the personal team when a body or a filter does", async () => {
    const unknown = unknownLike(b);
    const asked = async (path: string, things: Things, team: string | undefined, json?: unknown) => {
      const query = team ? `${path.includes('?') ? '&' : '?'}teamId=${team}` : '';
      const response = await call(`${gateway.baseUrl}${path}${query}`, {
        key: caller.key,
        ...(json === undefined ? {} : { method: 'POST', json }),
      });
      let text = response.text;
      for (const [name, id] of Object.entries(things)) text = text.replaceAll(id, `{${name}}`);
      return { status: response.status, body: JSON.parse(text) as unknown };
    };
    for (const team of [teamA, undefined]) {
      const requests = (things: Things) => [
        asked('/deployments', things, team, { projectId: things.project }),
        asked('/deployments', things, team, { redeployOf: things.deployment }),
        asked(`/deployments?projectId=${things.project}`, things, team),
      ];
      const [theirs, unknowns] = await Promise.all([
        Promise.all(requests(b)),
        Promise.all(requests(unknown)),
      ]);
      expect(theirs).toEqual(unknowns);
      for (const answer of theirs) expect(answer.status).toBe(404);
    }
  });

  it("leaves B's things as they were", async () => {
    const read = async (path: string) => {
      const response = await call(
        `${gateway.baseUrl}${path}${path.includes('?') ? '&' : '?'}teamId=${b.team}`,
        { key: bob.key },
      );
      expect(response.status).toBe(200);
      return response.body as Record<string, unknown>;
    };
    const [team, project, deployment, variables, logs, webhook, invitations, members] = await Promise.all([
      read(`/teams/${b.team}`),
      read(`/projects/${b.project}`),
      read(`/deployments/${b.deployment}`),
      read(`/projects/${b.project}/env`),
      read(`/deployments/${b.deployment}/logs`),
      read(`/webhooks/${b.webhook}`),
      read(`/teams/${b.team}/invitations`),
      read(`/teams/${b.team}/members`),
    ]);
    expect({
      team: team.name,
      project: project.name,
      deployment: deployment.status,
      variables: (variables.variables as { key: string; value: string }[]).map(({ key, value }) => ({
        key,
        value,
      })),
      logs: logs.lines,
      webhook: webhook.description ?? null,
      invitations: (invitations.invitations as { id: string }[]).map(({ id }) => id),
      members: (members.members as { userId: string; role: string }[]).map(({ userId, role }) => ({
        userId,
        role,
      })),
    }).toEqual({
      team: 'B',
      project: 'b',
      deployment: 'queued',
      variables: [{ key: 'B_ONLY', value: 'b' }],
      logs: [],
      webhook: null,
      invitations: [b.invitation],
      members: [{ userId: bob.userId, role: 'owner' }],
    });
  });
});
