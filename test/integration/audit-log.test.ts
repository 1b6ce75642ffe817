import type { AuditEvent } from '#shared/model/audit.ts';
import * as audit from '../support/audit.ts';
import type { TestGateway } from '../support/gateway.ts';
import type { JsonResponse } from '../support/http.ts';
import { call } from '../support/http.ts';
import type { TestPerson } from '../support/teams.ts';
import { join } from '../support/teams.ts';

// Reading a team's audit log (issue 35): refusals are logged, a request that changed nothing is not,
// the filters and pages answer what they say, only admins and owners read it, and a team's log holds
// only its own events. Refusals are written before the 403 is answered; changes' events come from
// the streams, read by this file's poller, so a test reads the log until they are there.

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await audit.startAuditedGateway();
});
afterAll(async () => {
  await gateway?.close();
});

const url = (path: string) => `${gateway.baseUrl}${path}`;
const idOf = (response: JsonResponse): string => (response.body as { id: string }).id;

/** A team with an owner and a member of each other role. */
async function teamOfEveryRole() {
  const owner = await audit.newWatchedPerson('Owner');
  const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
  const [admin, developer, viewer] = await Promise.all(
    ['Admin', 'Dev', 'Viewer'].map((name) => audit.newWatchedPerson(name)),
  );
  const people = [
    [admin, 'admin'],
    [developer, 'developer'],
    [viewer, 'viewer'],
  ] as const;
  for (const [person, role] of people) await join(gateway.baseUrl, teamId, owner, person as TestPerson, role);
  return { teamId, owner, admin, developer, viewer } as {
    teamId: string;
    owner: TestPerson;
    admin: TestPerson;
    developer: TestPerson;
    viewer: TestPerson;
  };
}

const newProject = async (key: string, teamId: string, name = 'web') => {
  const response = await call(url(`/projects?teamId=${teamId}`), { method: 'POST', key, json: { name } });
  expect(response.status).toBe(201);
  return response;
};

const log = (reader: TestPerson, teamId: string, query = '') =>
  audit.readLog(gateway.baseUrl, reader.key, teamId, query);

describe('refusals', () => {
  it('logs one denied event for each 403 on a team route, with who was refused; a non-member leaves nothing', async () => {
    const { teamId, owner, developer, viewer } = await teamOfEveryRole();
    const project = idOf(await newProject(owner.key, teamId));
    const outsider = await audit.newWatchedPerson('Outsider');
    const agent = audit.uniqueAgent();

    const created = await audit.callAs(agent, url(`/projects?teamId=${teamId}`), {
      method: 'POST',
      key: viewer.key,
      json: { name: 'nope' },
    });
    expect(created.status).toBe(403);
    const promoted = await audit.callAs(agent, url(`/projects/${project}/promote?teamId=${teamId}`), {
      method: 'POST',
      key: developer.key,
      json: { deploymentId: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M' },
    });
    expect(promoted.status).toBe(403);
    const intruded = await audit.callAs(agent, url(`/projects?teamId=${teamId}`), {
      method: 'POST',
      key: outsider.key,
      json: { name: 'mine' },
    });
    expect(intruded.status).toBe(404);

    // Written before the 403 was answered: there at once.
    const denied = await log(owner, teamId, 'outcome=denied');
    const common = {
      id: expect.stringMatching(/^aud_/),
      teamId,
      at: audit.ISO,
      outcome: 'denied',
      ip: '127.0.0.1',
      userAgent: agent,
    };
    const keyOf = (person: TestPerson) => audit.keyIdOf(gateway.baseUrl, person.key);
    expect(denied).toEqual([
      {
        ...common,
        action: 'production.promoted',
        actor: { type: 'user', id: developer.userId, email: developer.email, keyId: await keyOf(developer) },
        target: { type: 'project', id: project },
        // A refusal names the project of its path, so `?projectId=` finds it.
        projectId: project,
        requestId: audit.requestIdOf(promoted),
      },
      {
        ...common,
        action: 'project.created',
        actor: { type: 'user', id: viewer.userId, email: viewer.email, keyId: await keyOf(viewer) },
        target: { type: 'team', id: teamId },
        requestId: audit.requestIdOf(created),
      },
    ]);
    expect(await log(owner, teamId, `actorId=${outsider.userId}`)).toEqual([]);
  });
  it('names the thing a refusal was aimed at: a member, the team whose tokens, the project a deployment was for', async () => {
    const { teamId, owner, developer, viewer } = await teamOfEveryRole();
    const project = idOf(await newProject(owner.key, teamId));
    const refusals = [
      await call(url(`/teams/${teamId}/members/${viewer.userId}`), { method: 'DELETE', key: developer.key }),
      await call(url(`/teams/${teamId}/tokens`), {
        method: 'POST',
        key: developer.key,
        json: { name: 'ci', scopes: ['read'], expiresInDays: 1 },
      }),
      await call(url(`/deployments?teamId=${teamId}`), {
        method: 'POST',
        key: viewer.key,
        json: { projectId: project },
      }),
    ];
    expect(refusals.map(({ status }) => status)).toEqual([403, 403, 403]);
    const denied = await log(owner, teamId, 'outcome=denied');
    expect(denied.map(({ action, target, projectId }) => ({ action, target, projectId }))).toEqual([
      { action: 'deployment.created', target: { type: 'project', id: project }, projectId: project },
      { action: 'token.created', target: { type: 'team', id: teamId }, projectId: undefined },
      { action: 'member.removed', target: { type: 'member', id: viewer.userId }, projectId: undefined },
    ]);
  });

  it("logs a 403 for a key's missing scope in the team the request names, a team token's too; an outsider's leaves nothing", async () => {
    const { teamId, owner, developer } = await teamOfEveryRole();
    const project = idOf(await newProject(owner.key, teamId));
    const outsider = await audit.newWatchedPerson('Outsider');
    const agent = audit.uniqueAgent();
    const readKeyOf = async (person: TestPerson) => {
      const made = await call(url('/keys'), {
        method: 'POST',
        key: person.key,
        json: { name: 'read', scopes: ['read'] },
      });
      expect(made.status).toBe(201);
      return made.body as { apiKey: string; key: { id: string } };
    };
    const [developersRead, outsidersRead] = await Promise.all([readKeyOf(developer), readKeyOf(outsider)]);
    const token = await call(url(`/teams/${teamId}/tokens`), {
      method: 'POST',
      key: owner.key,
      json: { name: 'reader', scopes: ['read'], expiresInDays: 1 },
    });
    const { apiKey: readToken, token: tokenMade } = token.body as { apiKey: string; token: { id: string } };

    const deleted = await audit.callAs(agent, url(`/projects/${project}?teamId=${teamId}`), {
      method: 'DELETE',
      key: developersRead.apiKey,
    });
    const created = await audit.callAs(agent, url('/projects'), {
      method: 'POST',
      key: readToken,
      json: { name: 'nope' },
    });
    const intruded = await audit.callAs(agent, url(`/projects/${project}?teamId=${teamId}`), {
      method: 'DELETE',
      key: outsidersRead.apiKey,
    });
    for (const refused of [deleted, created, intruded]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: expect.stringContaining('scope') });
    }

    const denied = await log(owner, teamId, 'outcome=denied');
    expect(
      denied.map(({ action, actor, target, requestId }) => ({ action, actor: actor.id, target, requestId })),
    ).toEqual([
      {
        action: 'project.created',
        actor: tokenMade.id,
        target: { type: 'team', id: teamId },
        requestId: audit.requestIdOf(created),
      },
      {
        action: 'project.deleted',
        actor: developer.userId,
        target: { type: 'project', id: project },
        requestId: audit.requestIdOf(deleted),
      },
    ]);
    expect(denied.find(({ actor }) => actor.type === 'user')?.actor).toMatchObject({
      keyId: developersRead.key.id,
    });
    expect(await log(owner, teamId, `actorId=${outsider.userId}`)).toEqual([]);
  });

  it("logs a team token's scope refusal on its own team's route, a read of the log itself too", async () => {
    const { teamId, owner } = await teamOfEveryRole();
    const agent = audit.uniqueAgent();
    const made = await call(url(`/teams/${teamId}/tokens`), {
      method: 'POST',
      key: owner.key,
      json: { name: 'builder', scopes: ['build'], expiresInDays: 1 },
    });
    expect(made.status).toBe(201);
    const { apiKey, token } = made.body as { apiKey: string; token: { id: string } };
    const refused = await audit.callAs(agent, url(`/teams/${teamId}/audit-events`), { key: apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: expect.stringContaining('scope') });

    const denied = await log(owner, teamId, `outcome=denied&actorId=${token.id}`);
    expect(denied.map(({ action, actor, requestId }) => ({ action, actor, requestId }))).toEqual([
      {
        action: 'audit.read',
        actor: { type: 'token', id: token.id, name: 'builder' },
        requestId: audit.requestIdOf(refused),
      },
    ]);
  });
});

describe('who acted', () => {
  it('names a person by id and email, also once they have left the team', async () => {
    const owner = await audit.newWatchedPerson('Owner');
    const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
    const leaver = await audit.newWatchedPerson('Leaver');
    await join(gateway.baseUrl, teamId, owner, leaver, 'developer');
    await newProject(leaver.key, teamId);
    const removed = await call(url(`/teams/${teamId}/members/${leaver.userId}`), {
      method: 'DELETE',
      key: owner.key,
    });
    expect(removed.status).toBe(204);

    const made = await audit.eventually(
      () => log(owner, teamId, `actorId=${leaver.userId}&action=project.created`),
      (events) => events.length > 0,
    );
    expect(made.map(({ actor }) => actor)).toEqual([
      {
        type: 'user',
        id: leaver.userId,
        email: leaver.email,
        keyId: await audit.keyIdOf(gateway.baseUrl, leaver.key),
      },
    ]);
  });
});

describe('who may read it', () => {
  it('is read by owners and admins; developers and viewers are refused (and logged), a team token 403, a non-member 404', async () => {
    const { teamId, owner, admin, developer, viewer } = await teamOfEveryRole();
    const outsider = await audit.newWatchedPerson('Outsider');
    const made = await call(url(`/teams/${teamId}/tokens`), {
      method: 'POST',
      key: owner.key,
      json: { name: 'reader', scopes: ['read'], expiresInDays: 1 },
    });
    const token = made.body as { apiKey: string; token: { id: string } };
    const statusOf = async (key: string) => (await audit.auditPage(gateway.baseUrl, key, teamId)).status;
    expect({
      owner: await statusOf(owner.key),
      admin: await statusOf(admin.key),
      developer: await statusOf(developer.key),
      viewer: await statusOf(viewer.key),
      token: await statusOf(token.apiKey),
      outsider: await statusOf(outsider.key),
    }).toEqual({ owner: 200, admin: 200, developer: 403, viewer: 403, token: 403, outsider: 404 });
    const refused = await log(owner, teamId, 'outcome=denied');
    expect(refused.map(({ action, actor }) => [action, actor.id])).toEqual([
      ['audit.read', token.token.id],
      ['audit.read', viewer.userId],
      ['audit.read', developer.userId],
    ]);
    const forbidden = await audit.auditPage(gateway.baseUrl, viewer.key, teamId);
    expect(forbidden.body).toMatchObject({ error: 'forbidden' });
    expect(forbidden.text).not.toContain('"events"');
  });
});

describe('filters and pages', () => {
  /** A team with changes by two people on two projects, and a refusal; its log once complete. */
  async function busyTeam() {
    const { teamId, owner, admin, viewer } = await teamOfEveryRole();
    const first = await newProject(owner.key, teamId, 'one');
    const second = await newProject(admin.key, teamId, 'two');
    const [one, two] = [idOf(first), idOf(second)];
    const renamed = await call(url(`/projects/${one}?teamId=${teamId}`), {
      method: 'PATCH',
      key: admin.key,
      json: { name: 'uno' },
    });
    expect(renamed.status).toBe(200);
    const refused = await call(url(`/projects?teamId=${teamId}`), {
      method: 'POST',
      key: viewer.key,
      json: { name: 'x' },
    });
    expect(refused.status).toBe(403);
    const waited = [first, second, renamed, refused].map(audit.requestIdOf);
    // Team created, 3 invited and 3 joined (by the helpers), and the 4 requests above.
    const events = await audit.logWith(gateway.baseUrl, owner.key, teamId, waited, 11);
    return { teamId, owner, admin, viewer, one, two, events };
  }

  it('pages newest first with limit and cursor, each event once, nextCursor null on the last page', async () => {
    const { teamId, owner, events } = await busyTeam();
    // team created, 3 joined, 3 invitations, 2 projects, a rename, a refusal.
    expect(events.length).toBe(11);
    const ids = events.map(({ id }) => id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const times = events.map(({ at }) => at);
    expect([...times].sort().reverse()).toEqual(times);

    const paged: AuditEvent[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await audit.auditPage(gateway.baseUrl, owner.key, teamId, query);
      expect(page.status).toBe(200);
      const body = page.body as { events: AuditEvent[]; nextCursor: string | null };
      expect(body.events.length).toBeLessThanOrEqual(3);
      paged.push(...body.events);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(cursor).toBeNull();
    expect(pages).toBe(4);
    expect(paged).toEqual(events);
  });

  it('filters by action, actor, project, outcome and time, each alone and together', async () => {
    const { teamId, owner, admin, viewer, one, two, events } = await busyTeam();
    const ids = async (query: string) => (await log(owner, teamId, query)).map(({ id }) => id);
    const where = (keep: (event: AuditEvent) => boolean) => events.filter(keep).map(({ id }) => id);

    const updates = await ids('action=project.updated');
    expect(updates).toEqual(where(({ action }) => action === 'project.updated'));
    expect(updates).toHaveLength(1);
    const byAdmin = await ids(`actorId=${admin.userId}`);
    expect(byAdmin).toEqual(where(({ actor }) => actor.id === admin.userId));
    // Joined, made a project, renamed one.
    expect(byAdmin).toHaveLength(3);
    const aboutOne = await log(owner, teamId, `projectId=${one}`);
    expect(aboutOne.map(({ action }) => action)).toEqual(['project.updated', 'project.created']);
    expect(await ids(`projectId=${two}&actorId=${owner.userId}`)).toEqual([]);
    const denied = await log(owner, teamId, 'outcome=denied');
    expect(denied.map(({ actor }) => actor.id)).toEqual([viewer.userId]);
    expect(await ids('outcome=success')).toEqual(where(({ outcome }) => outcome === 'success'));

    // A window from the second project's creation to the rename, both included.
    const created = events.find(({ action, projectId }) => action === 'project.created' && projectId === two);
    const rename = events.find(({ action }) => action === 'project.updated');
    const [since, until] = [created?.at ?? '', rename?.at ?? ''];
    const inWindow = await ids(`since=${since}&until=${until}`);
    expect(inWindow).toEqual(where(({ at }) => at >= since && at <= until));
    expect(inWindow).toEqual(expect.arrayContaining([created?.id, rename?.id]));
    expect(await ids(`since=${since}&until=${until}&actorId=${admin.userId}&action=project.created`)).toEqual(
      [created?.id],
    );
    expect(await ids(`until=${events.at(-1)?.at ?? ''}&action=project.created`)).toEqual([]);
    // A refusal of a request that changes nothing is filed under the permission it lacked.
    expect(await ids('action=audit.read')).toEqual(where(({ action }) => action === 'audit.read'));
    // An action's first word is all of its actions; a person is found by the email the log shows.
    const projectActions = where(({ action }) => action.startsWith('project.'));
    expect(projectActions.length).toBeGreaterThan(2);
    expect(await ids('action=project')).toEqual(projectActions);
    expect(await ids('action=project.*')).toEqual(projectActions);
    expect(await ids(`actorEmail=${encodeURIComponent(admin.email.toUpperCase())}`)).toEqual(byAdmin);
    expect(await ids(`actorEmail=nobody-${teamId.toLowerCase()}@example.com`)).toEqual([]);
  });

  it("names the valid actions when an action is unknown, and an actorId that cannot be one's", async () => {
    const owner = await audit.newWatchedPerson('Owner');
    const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
    const unknown = await audit.auditPage(gateway.baseUrl, owner.key, teamId, 'action=project.create');
    expect(unknown.body).toMatchObject({ error: 'validation_error', field: 'action' });
    const message = (unknown.body as { message: string }).message;
    expect(message).toMatch(/first word .*: .*project\.created, .*project\.updated/);
    expect(message).not.toContain('docs/');
    const email = await audit.auditPage(
      gateway.baseUrl,
      owner.key,
      teamId,
      `actorId=${encodeURIComponent(owner.email)}`,
    );
    expect(email.status).toBe(400);
    expect(email.body).toMatchObject({
      error: 'validation_error',
      field: 'actorId',
      message: expect.stringContaining('user id (usr_…), a team token id (key_…) or platform'),
    });
  });

  it.each([
    ['since=yesterday', 'since'],
    ['until=2026-13-01T00:00:00Z', 'until'],
    ['outcome=maybe', 'outcome'],
    // A day that does not exist, which Date.parse would read as 3 March.
    ['since=2026-02-31T00:00:00Z', 'since'],
    // A window that ends before it starts: 400, not the store's refusal of the range.
    ['since=2026-11-25T00:00:00Z&until=2026-11-24T00:00:00Z', 'until'],
    ['action=', 'action'],
    ['action=project.create', 'action'],
    ['actorId=', 'actorId'],
    ['actorId=bob%40example.com', 'actorId'],
    ['actorEmail=bob', 'actorEmail'],
    [`actorId=usr_1&actorEmail=bob%40example.com`, 'actorEmail'],
    ['projectId=', 'projectId'],
    ['limit=0', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const owner = await audit.newWatchedPerson('Owner');
    const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
    const response = await audit.auditPage(gateway.baseUrl, owner.key, teamId, query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field });
  });

  it("answers a cursor changed by a byte, or another team's, with 400 naming cursor", async () => {
    const { teamId, owner } = await busyTeam();
    const page = await audit.auditPage(gateway.baseUrl, owner.key, teamId, 'limit=2');
    const cursor = (page.body as { nextCursor: string }).nextCursor;
    const flipped = `${cursor.slice(0, -2)}${cursor.at(-2) === 'A' ? 'B' : 'A'}${cursor.at(-1)}`;
    const otherTeam = await audit.newWatchedTeam(gateway.baseUrl, owner);
    for (const [team, sent] of [
      [teamId, flipped],
      [otherTeam, cursor],
    ] as const) {
      const response = await audit.auditPage(
        gateway.baseUrl,
        owner.key,
        team,
        `cursor=${encodeURIComponent(sent)}`,
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'validation_error', field: 'cursor' });
    }
  });
});

describe('teams apart', () => {
  it("never shows one team's events in another's log, even to someone in both", async () => {
    const a = await audit.newWatchedPerson('A');
    const b = await audit.newWatchedPerson('B');
    const [teamA, teamB] = [
      await audit.newWatchedTeam(gateway.baseUrl, a),
      await audit.newWatchedTeam(gateway.baseUrl, b),
    ];
    await join(gateway.baseUrl, teamB, b, a, 'admin');
    const inA = await newProject(a.key, teamA);
    const inB = await newProject(a.key, teamB);
    const logA = await audit.logWith(gateway.baseUrl, a.key, teamA, [audit.requestIdOf(inA)]);
    const logB = await audit.logWith(gateway.baseUrl, a.key, teamB, [audit.requestIdOf(inB)]);
    expect(logA.every((event) => event.teamId === teamA)).toBe(true);
    expect(logB.every((event) => event.teamId === teamB)).toBe(true);
    expect(logA.map(({ requestId }) => requestId)).not.toContain(audit.requestIdOf(inB));
    expect(logB.map(({ requestId }) => requestId)).not.toContain(audit.requestIdOf(inA));
    expect(await log(a, teamA, `projectId=${idOf(inB)}`)).toEqual([]);
    // B's owner is no member of A.
    expect((await audit.auditPage(gateway.baseUrl, b.key, teamA)).status).toBe(404);
  });
});

describe('requests that changed nothing', () => {
  it('adds nothing for an Idempotency-Key replay or a 400', async () => {
    const owner = await audit.newWatchedPerson('Owner');
    const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
    const create = () =>
      call(url(`/projects?teamId=${teamId}`), {
        method: 'POST',
        key: owner.key,
        headers: { 'Idempotency-Key': `audit-${teamId}` },
        json: { name: 'once' },
      });
    const first = await create();
    const replay = await create();
    expect([first.status, replay.status, replay.headers.get('idempotency-replayed')]).toEqual([
      201,
      201,
      'true',
    ]);
    const project = idOf(first);
    const projectUrl = url(`/projects/${project}?teamId=${teamId}`);
    const invalid = [
      await call(url(`/projects?teamId=${teamId}`), { method: 'POST', key: owner.key, json: { name: '' } }),
      await call(projectUrl, { method: 'PATCH', key: owner.key, json: { name: 'x', id: 'prj_other' } }),
    ];
    expect(invalid.map(({ status }) => status)).toEqual([400, 400]);
    // A later change of the same project: once its event is there, so would be any the stream held
    // before it (the poller hands a table's records over in order).
    const marker = await call(projectUrl, { method: 'PATCH', key: owner.key, json: { name: 'later' } });
    const events = await audit.logWith(gateway.baseUrl, owner.key, teamId, [audit.requestIdOf(marker)]);
    expect(
      events
        .filter(({ projectId }) => projectId === project)
        .map(({ action, requestId }) => [action, requestId]),
    ).toEqual([
      ['project.updated', audit.requestIdOf(marker)],
      ['project.created', audit.requestIdOf(first)],
    ]);
    const quiet = [replay, ...invalid].map(audit.requestIdOf);
    expect(events.filter(({ requestId }) => quiet.includes(requestId))).toEqual([]);
  });
});
