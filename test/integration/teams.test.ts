import { allWebhooksOf } from '#shared/db/webhooks/webhooks.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam, type TestPerson, teamOfEveryRole } from '../support/teams.ts';

// Teams over HTTP: the personal team every user has, teams made and joined, invitations, roles that
// hold from the next request, and the last owner.

let gateway: TestGateway;
restoreClockAfterEach();

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const url = (path: string) => `${gateway.baseUrl}${path}`;
const get = (path: string, who: { key: string }) => call(url(path), { key: who.key });
const send = (method: string, path: string, who: { key: string }, json?: unknown) =>
  call(url(path), { method, key: who.key, ...(json === undefined ? {} : { json }) });

async function invite(teamId: string, inviter: TestPerson, email: string, role = 'developer') {
  const response = await send('POST', `/teams/${teamId}/invitations`, inviter, { email, role });
  return response;
}

describe('the personal team', () => {
  // What a user stored before teams existed is theirs there too: team-upgrade.test.ts.
  it('is named after its owner, who is its only member', async () => {
    const ada = await newPerson('Ada');
    const personalId = `team_${ada.userId.slice('usr_'.length)}`;
    const teams = await get('/teams', ada);
    expect(teams.status).toBe(200);
    expect((teams.body as { teams: unknown[] }).teams).toEqual([
      expect.objectContaining({ id: personalId, name: 'Ada', personal: true, role: 'owner' }),
    ]);
    const members = await get(`/teams/${personalId}/members`, ada);
    expect((members.body as { members: unknown[] }).members).toEqual([
      expect.objectContaining({ userId: ada.userId, email: ada.email, role: 'owner' }),
    ]);
  });

  it('cannot be deleted, left or invited into (409), and is renamed like any team', async () => {
    const ada = await newPerson('Ada');
    const personalId = `team_${ada.userId.slice('usr_'.length)}`;
    expect((await send('DELETE', `/teams/${personalId}`, ada)).status).toBe(409);
    expect((await send('DELETE', `/teams/${personalId}/members/${ada.userId}`, ada)).status).toBe(409);
    expect((await invite(personalId, ada, 'someone@example.test')).status).toBe(409);
    const renamed = await send('PATCH', `/teams/${personalId}`, ada, { name: 'Ada Labs' });
    expect(renamed.status).toBe(200);
    expect((await get(`/teams/${personalId}`, ada)).body).toEqual(
      expect.objectContaining({ name: 'Ada Labs', personal: true }),
    );
  });

  it('is 404 to anyone else, as an unknown team is', async () => {
    const [ada, bob] = await Promise.all([newPerson('Ada'), newPerson('Bob')]);
    const adasTeam = `team_${ada.userId.slice('usr_'.length)}`;
    const theirs = await get(`/projects?teamId=${adasTeam}`, bob);
    const unknown = await get('/projects?teamId=team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2Q', bob);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body).toEqual(expect.objectContaining({ error: 'not_found' }));
    expect((theirs.body as { message: string }).message.replace(adasTeam, 'X')).toBe(
      (unknown.body as { message: string }).message.replace('team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2Q', 'X'),
    );
  });

  it('is not what an empty or overlong teamId names: 400 naming teamId, in the query or the path', async () => {
    const ada = await newPerson('Ada');
    const long = `team_${'x'.repeat(60)}`;
    for (const path of ['/projects?teamId=', `/projects?teamId=${long}`, `/teams/${long}`]) {
      const response = await get(path, ada);
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: { error: 'validation_error', message: 'teamId must be 1 to 64 characters', field: 'teamId' },
      });
    }
  });
});

describe('a shared team', () => {
  it("is made by its owner, holds its own projects apart from anyone's personal ones, and lists its members", async () => {
    const ada = await newPerson('Ada');
    const teamId = await newTeam(gateway.baseUrl, ada, 'Acme');
    const made = await send('POST', `/projects?teamId=${teamId}`, ada, { name: 'shared-web' });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    expect((await get(`/projects/${id}?teamId=${teamId}`, ada)).status).toBe(200);
    // Not in the personal team.
    expect((await get(`/projects/${id}`, ada)).status).toBe(404);
    const listed = await get(`/teams`, ada);
    expect((listed.body as { teams: { id: string; role: string }[] }).teams).toEqual([
      expect.objectContaining({ personal: true }),
      expect.objectContaining({ id: teamId, name: 'Acme', role: 'owner', personal: false }),
    ]);
  });

  it('cannot be deleted while it has projects (409 naming how many), and is gone once they are', async () => {
    const ada = await newPerson('Ada');
    const teamId = await newTeam(gateway.baseUrl, ada);
    const ids = [];
    for (const name of ['one', 'two']) {
      ids.push(((await send('POST', `/projects?teamId=${teamId}`, ada, { name })).body as { id: string }).id);
    }
    const refused = await send('DELETE', `/teams/${teamId}`, ada);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toContain('2 projects');
    for (const id of ids)
      expect((await send('DELETE', `/projects/${id}?teamId=${teamId}`, ada)).status).toBe(204);
    const hook = await send('POST', `/webhooks?teamId=${teamId}`, ada, {
      url: 'https://example.com/hook',
      events: ['*'],
    });
    expect(hook.status).toBe(201);
    expect((await send('DELETE', `/teams/${teamId}`, ada)).status).toBe(204);
    expect((await get(`/teams/${teamId}`, ada)).status).toBe(404);
    // Its webhooks went with it: nothing is left in its partition to send to.
    expect(await allWebhooksOf(teamId)).toEqual([]);
    expect((await get('/teams', ada)).body).toEqual(
      expect.objectContaining({ teams: [expect.objectContaining({ personal: true })] }),
    );
  });
});

describe('invitations', () => {
  it('are accepted once, by the invited email only, and make a member with the invited role', async () => {
    const [owner, grace, mallory] = await Promise.all([
      newPerson('Owner'),
      newPerson('Grace'),
      newPerson('Mallory'),
    ]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    const invited = await invite(teamId, owner, grace.email.toUpperCase());
    expect(invited.status).toBe(201);
    const { code, id } = invited.body as { code: string; id: string };
    const listed = await get(`/teams/${teamId}/invitations`, owner);
    expect((listed.body as { invitations: unknown[] }).invitations).toEqual([
      {
        id,
        email: grace.email,
        role: 'developer',
        invitedBy: owner.userId,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    expect(listed.text).not.toContain(code);

    const wrong = await send('POST', '/invitations/accept', mallory, { code });
    expect(wrong.status).toBe(403);
    const accepted = await send('POST', '/invitations/accept', grace, { code });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ team: expect.objectContaining({ id: teamId }), role: 'developer' });
    expect((await send('POST', '/invitations/accept', grace, { code })).status).toBe(404);
    expect((await get(`/teams/${teamId}`, grace)).body).toEqual(
      expect.objectContaining({ role: 'developer' }),
    );
  });

  it('expire after 7 days, and a revoked one is useless', async () => {
    const [owner, grace, ben] = await Promise.all([newPerson('Owner'), newPerson('Grace'), newPerson('Ben')]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    const late = (await invite(teamId, owner, grace.email)).body as { code: string };
    const revoked = (await invite(teamId, owner, ben.email)).body as { code: string; id: string };
    expect((await send('DELETE', `/teams/${teamId}/invitations/${revoked.id}`, owner)).status).toBe(204);
    expect((await send('POST', '/invitations/accept', ben, { code: revoked.code })).status).toBe(404);
    const now = Date.now();
    clock.now = () => now + 7 * 86_400_000 + 1_000;
    expect((await send('POST', '/invitations/accept', grace, { code: late.code })).status).toBe(404);
  });

  it("grant at most the inviter's role, and an admin needs an owner to make an owner", async () => {
    const { teamId, admin } = await teamOfEveryRole(gateway.baseUrl);
    expect((await invite(teamId, admin, 'x@example.test', 'owner')).status).toBe(403);
    expect((await invite(teamId, admin, 'x@example.test', 'admin')).status).toBe(201);
  });

  it('are refused once their inviter no longer holds the role they grant (demoted or removed), and stay listed, by inviter, to revoke', async () => {
    const { teamId, owner, admin } = await teamOfEveryRole(gateway.baseUrl);
    const [asAdmin, asDeveloper, byRemoved] = await Promise.all([
      newPerson('A'),
      newPerson('D'),
      newPerson('R'),
    ]);
    const second = await newPerson('Second');
    await join(gateway.baseUrl, teamId, owner, second, 'admin');
    const made = await Promise.all([
      invite(teamId, admin, asAdmin.email, 'admin'),
      invite(teamId, admin, asDeveloper.email, 'developer'),
      invite(teamId, second, byRemoved.email, 'viewer'),
    ]);
    for (const response of made) expect(response.status).toBe(201);
    const [adminCode, developerCode, removedCode] = made.map(
      (response) => response.body as { code: string; id: string },
    ) as [{ code: string; id: string }, { code: string; id: string }, { code: string; id: string }];
    // The admin is made a developer: they neither hold the admin role nor may invite at all.
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${admin.userId}`, owner, { role: 'developer' })).status,
    ).toBe(200);
    expect((await send('DELETE', `/teams/${teamId}/members/${second.userId}`, owner)).status).toBe(204);

    for (const [person, code, role] of [
      [asAdmin, adminCode.code, 'admin'],
      [asDeveloper, developerCode.code, 'developer'],
      [byRemoved, removedCode.code, 'viewer'],
    ] as const) {
      const refused = await send('POST', '/invitations/accept', person, { code });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: 'conflict',
        message: expect.stringContaining(`no longer holds the ${role} role in team ${teamId}`),
      });
      expect((await get(`/teams/${teamId}`, person)).status).toBe(404);
    }
    const listed = (await get(`/teams/${teamId}/invitations`, owner)).body as {
      invitations: { id: string; invitedBy: string }[];
    };
    expect(listed.invitations.map(({ id, invitedBy }) => [id, invitedBy]).sort()).toEqual(
      [
        [adminCode.id, admin.userId],
        [developerCode.id, admin.userId],
        [removedCode.id, second.userId],
      ].sort(),
    );
    // Restored, the inviter's invitation is good again: what counts is the role when it is accepted.
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${admin.userId}`, owner, { role: 'admin' })).status,
    ).toBe(200);
    const accepted = await send('POST', '/invitations/accept', asDeveloper, { code: developerCode.code });
    expect([accepted.status, (accepted.body as { role: string }).role]).toEqual([200, 'developer']);
  });

  it('answer 409 to someone already a member', async () => {
    const { teamId, owner, viewer } = await teamOfEveryRole(gateway.baseUrl);
    const again = (await invite(teamId, owner, viewer.email)).body as { code: string };
    expect((await send('POST', '/invitations/accept', viewer, { code: again.code })).status).toBe(409);
  });
});

describe('roles', () => {
  it('are listed as data, lowest first, each holding what the one before holds', async () => {
    const ada = await newPerson('Ada');
    const response = await get('/roles', ada);
    const roles = (response.body as { roles: { name: string; permissions: string[] }[] }).roles;
    expect(roles.map((role) => role.name)).toEqual(['viewer', 'developer', 'admin', 'owner']);
    for (let i = 1; i < roles.length; i++) {
      expect(roles[i]?.permissions).toEqual(expect.arrayContaining(roles[i - 1]?.permissions ?? []));
    }
  });

  it("change from the member's next request, and a removed member is 404 from then on", async () => {
    const { teamId, owner, developer } = await teamOfEveryRole(gateway.baseUrl);
    const create = () => send('POST', `/projects?teamId=${teamId}`, developer, { name: 'p' });
    expect((await create()).status).toBe(201);
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${developer.userId}`, owner, { role: 'viewer' })).status,
    ).toBe(200);
    const refused = await create();
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toContain('developer');
    expect((await send('DELETE', `/teams/${teamId}/members/${developer.userId}`, owner)).status).toBe(204);
    expect((await get(`/projects?teamId=${teamId}`, developer)).status).toBe(404);
  });

  it('hold from the next request where the membership is read with the resource', async () => {
    const [owner, developer] = await Promise.all([newPerson('Owner'), newPerson('Dev')]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');
    const inTeam = `?teamId=${teamId}`;
    const project = (await send('POST', `/projects${inTeam}`, developer, { name: 'p' })).body as {
      id: string;
    };
    const deploy = () => send('POST', `/deployments${inTeam}`, developer, { projectId: project.id });
    const first = await deploy();
    expect(first.status).toBe(201);
    const deploymentId = (first.body as { id: string }).id;
    const reads = () =>
      Promise.all([
        get(`/projects/${project.id}${inTeam}`, developer),
        get(`/deployments/${deploymentId}${inTeam}`, developer),
      ]);

    const member = `/teams/${teamId}/members/${developer.userId}`;
    expect((await send('PATCH', member, owner, { role: 'viewer' })).status).toBe(200);
    const refused = await deploy();
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toContain('needs the developer role');
    // A viewer still reads both.
    expect((await reads()).map(({ status }) => status)).toEqual([200, 200]);

    expect((await send('DELETE', member, owner)).status).toBe(204);
    const gone = await reads();
    expect(gone.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 404, body: { error: 'not_found', message: `Team ${teamId} was not found` } },
      { status: 404, body: { error: 'not_found', message: `Team ${teamId} was not found` } },
    ]);
  });

  it('keep a last owner: they can neither leave nor be demoted until another owner exists', async () => {
    const { teamId, owner, admin } = await teamOfEveryRole(gateway.baseUrl);
    expect((await send('DELETE', `/teams/${teamId}/members/${owner.userId}`, owner)).status).toBe(409);
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${owner.userId}`, owner, { role: 'admin' })).status,
    ).toBe(409);
    // An admin may not touch an owner at all.
    expect((await send('DELETE', `/teams/${teamId}/members/${owner.userId}`, admin)).status).toBe(403);
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${admin.userId}`, owner, { role: 'owner' })).status,
    ).toBe(200);
    expect((await send('DELETE', `/teams/${teamId}/members/${owner.userId}`, owner)).status).toBe(204);
    expect((await get(`/teams/${teamId}`, owner)).status).toBe(404);
  });

  it('of two owners demoting each other at once, exactly one succeeds', async () => {
    const owner = await newPerson('Owner');
    const teamId = await newTeam(gateway.baseUrl, owner);
    const other = await newPerson('Other');
    await join(gateway.baseUrl, teamId, owner, other, 'owner');
    const answers = await Promise.all([
      send('PATCH', `/teams/${teamId}/members/${other.userId}`, owner, { role: 'viewer' }),
      send('PATCH', `/teams/${teamId}/members/${owner.userId}`, other, { role: 'viewer' }),
    ]);
    // The loser either passed the role check first and hit the last-owner rule (409), or was
    // already demoted when its role was read (403); either way the team keeps one owner.
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(statuses.find((status) => status !== 200));
    const stillOwner = answers[0]?.status === 200 ? owner : other;
    const members = (await get(`/teams/${teamId}/members`, stillOwner)).body as {
      members: { role: string }[];
    };
    expect(members.members.filter((member) => member.role === 'owner')).toHaveLength(1);
  });
});
