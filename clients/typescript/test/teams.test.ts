import { roleMatrix } from '../../../shared/model/roles.ts';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newPerson, type TestPerson } from '../../../test/support/teams.ts';
import { ConflictError, ForbiddenError, NotFoundError, PlatformClient } from '../src/index.ts';

// The SDK in a team: `new PlatformClient({ teamId })` sends `?teamId=` on every call that acts in a
// team, a call's `{ teamId }` wins, and the team operations come generated, lists paginated.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

/** A client of `person`, acting in `teamId` when given; every URL it requests is recorded. */
function clientOf(person: TestPerson, teamId?: string) {
  const urls: string[] = [];
  const client = new PlatformClient({
    baseUrl: gateway.baseUrl,
    backendUrl: gateway.backendUrl,
    apiKey: person.key,
    ...(teamId ? { teamId } : {}),
    fetch: (url, init) => {
      urls.push(`${init.method} ${url.slice(gateway.baseUrl.length)}`);
      return fetch(url, init);
    },
  });
  return { client, urls };
}

const personalTeamOf = (person: TestPerson) => `team_${person.userId.slice('usr_'.length)}`;

/** A team `owner` made through the SDK, and `member` in it as `role` by an accepted invitation. */
async function teamWith(owner: TestPerson, member: TestPerson, role: 'viewer' | 'developer' | 'admin') {
  const { client } = clientOf(owner);
  const team = await client.teams.create({ name: 'Acme' });
  const { code } = await client.teams.createInvitation(team.id, { email: member.email, role });
  const accepted = await clientOf(member).client.teams.acceptInvitation({ code });
  expect(accepted).toEqual({ team: expect.objectContaining({ id: team.id, name: 'Acme' }), role });
  return team.id;
}

describe('PlatformClient({ teamId })', () => {
  it("acts in its team on every call that acts in one, and a call's { teamId } wins", async () => {
    const [ada, bob] = await Promise.all([newPerson('Ada'), newPerson('Bob')]);
    const teamId = await teamWith(ada, bob, 'developer');
    const { client: bobInTeam, urls } = clientOf(bob, teamId);

    const project = await bobInTeam.projects.create({ name: 'shared' });
    expect(await clientOf(ada, teamId).client.projects.get(project.id)).toEqual(project);
    // Bob's personal team holds nothing, and Ada's own client (no teamId) does not see the project.
    expect((await clientOf(bob).client.projects.list().page()).projects).toEqual([]);
    await expect(clientOf(ada).client.projects.get(project.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bobInTeam.projects.get(project.id, { teamId: personalTeamOf(bob) })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const listed = [];
    for await (const item of bobInTeam.projects.list({ limit: 1 })) listed.push(item.id);
    expect(listed).toEqual([project.id]);
    expect(urls).toEqual([
      `POST /projects?teamId=${teamId}`,
      `GET /projects/${project.id}?teamId=${personalTeamOf(bob)}`,
      `GET /projects?limit=1&teamId=${teamId}`,
    ]);
  });

  it('follows a deployment of the team, and sends no teamId where the path names the team', async () => {
    const [ada, bob] = await Promise.all([newPerson('Ada'), newPerson('Bob')]);
    const teamId = await teamWith(ada, bob, 'developer');
    const { client, urls } = clientOf(bob, teamId);
    const project = await client.projects.create({ name: 'web' });
    const deployment = await client.deployments.create({ projectId: project.id });
    await client.deployments.cancel(deployment.id);
    const events = [];
    for await (const event of client.deployments.follow(deployment.id)) events.push(event.type);
    expect(events).toEqual(['status', 'end']);
    const personal = clientOf(bob).client.deployments.follow(deployment.id);
    await expect(personal.next()).rejects.toBeInstanceOf(NotFoundError);

    expect(await client.teams.get(teamId)).toEqual(
      expect.objectContaining({ id: teamId, name: 'Acme', personal: false, role: 'developer' }),
    );
    expect(urls.slice(-1)).toEqual([`GET /teams/${teamId}`]);
  });

  it('refuses what the role does not allow with a ForbiddenError, and the last owner with a ConflictError', async () => {
    const [ada, vic] = await Promise.all([newPerson('Ada'), newPerson('Vic')]);
    const teamId = await teamWith(ada, vic, 'viewer');
    const refused = await clientOf(vic, teamId)
      .client.projects.create({ name: 'nope' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused).toMatchObject({ status: 403, message: expect.stringContaining('developer') });
    const { client } = clientOf(ada);
    await expect(client.teams.updateMember(teamId, ada.userId, { role: 'admin' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(client.teams.delete(personalTeamOf(ada))).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('the team operations', () => {
  it('list, rename, walk members page by page, change a role, remove, and delete', async () => {
    const [ada, bob, cy] = await Promise.all([newPerson('Ada'), newPerson('Bob'), newPerson('Cy')]);
    const teamId = await teamWith(ada, bob, 'viewer');
    const { client } = clientOf(ada);
    const { code } = await client.teams.createInvitation(teamId, { email: cy.email, role: 'developer' });
    await clientOf(cy).client.teams.acceptInvitation({ code });

    const other = await client.teams.create({ name: 'Beta' });
    const teams = [];
    for await (const team of client.teams.list({ limit: 2 })) teams.push([team.id, team.role, team.personal]);
    expect(teams[0]).toEqual([personalTeamOf(ada), 'owner', true]);
    expect(teams.slice(1).sort()).toEqual(
      [
        [teamId, 'owner', false],
        [other.id, 'owner', false],
      ].sort(),
    );
    expect((await client.teams.list({ limit: 2 }).page()).nextCursor).toEqual(expect.any(String));
    expect((await client.teams.update(teamId, { name: 'Acme Inc.' })).name).toBe('Acme Inc.');

    const members = [];
    for await (const member of client.teams.listMembers(teamId, { limit: 1 }))
      members.push([member.email, member.role]);
    expect(members.sort()).toEqual(
      [
        [ada.email, 'owner'],
        [bob.email, 'viewer'],
        [cy.email, 'developer'],
      ].sort(),
    );
    expect(await client.teams.updateMember(teamId, bob.userId, { role: 'admin' })).toEqual(
      expect.objectContaining({ userId: bob.userId, role: 'admin' }),
    );
    await client.teams.removeMember(teamId, cy.userId);
    await expect(clientOf(cy, teamId).client.projects.list().page()).rejects.toBeInstanceOf(NotFoundError);

    await client.teams.delete(teamId);
    await expect(client.teams.get(teamId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists and revokes invitations (never showing a code), and a revoked code is not found', async () => {
    const [ada, bob] = await Promise.all([newPerson('Ada'), newPerson('Bob')]);
    const { client } = clientOf(ada);
    const team = await client.teams.create({ name: 'Acme' });
    const invitation = await client.teams.createInvitation(team.id, { email: bob.email, role: 'viewer' });
    expect(invitation.code).toMatch(/^inv_/);
    const { invitations } = await client.teams.listInvitations(team.id).page();
    const { code, ...shown } = invitation;
    expect(invitations).toEqual([expect.objectContaining(shown)]);
    expect(JSON.stringify(invitations)).not.toContain(code);
    await client.teams.revokeInvitation(team.id, invitation.id);
    await expect(clientOf(bob).client.teams.acceptInvitation({ code })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers the role matrix the checks use', async () => {
    const { client } = clientOf(await newPerson('Ada'));
    expect(await client.teams.listRoles()).toEqual({ roles: roleMatrix() });
  });
});
