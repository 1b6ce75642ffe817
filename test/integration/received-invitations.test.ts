import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// GET /invitations: what an invitee sees of the invitations sent to their email. Each test invites
// its own new people, so the lists it reads hold only what it made.

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

interface Received {
  id: string;
  team: { id: string; name: string };
  role: string;
  invitedBy: { id: string; email?: string; name?: string | null };
  acceptable: boolean;
}

async function invite(teamId: string, inviter: TestPerson, email: string, role = 'developer') {
  const made = await send('POST', `/teams/${teamId}/invitations`, inviter, { email, role });
  expect(made.status).toBe(201);
  return made.body as { id: string; code: string };
}

async function received(
  who: TestPerson,
  query = '',
): Promise<{ invitations: Received[]; nextCursor: string | null }> {
  const listed = await get(`/invitations${query}`, who);
  expect(listed.status).toBe(200);
  return listed.body as { invitations: Received[]; nextCursor: string | null };
}

describe('the invitations to my email', () => {
  it('are listed newest first with team, role and inviter, never a code, and to no one else', async () => {
    const [ada, bob, grace, mallory] = await Promise.all([
      newPerson('Ada'),
      newPerson('Bob'),
      newPerson('Grace'),
      newPerson('Mallory'),
    ]);
    const [acme, globex] = await Promise.all([
      newTeam(gateway.baseUrl, ada, 'Acme'),
      newTeam(gateway.baseUrl, bob, 'Globex'),
    ]);
    const first = await invite(acme, ada, grace.email.toUpperCase(), 'viewer');
    const second = await invite(globex, bob, grace.email, 'admin');

    const listed = await get('/invitations', grace);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      invitations: [
        {
          id: second.id,
          team: { id: globex, name: 'Globex' },
          role: 'admin',
          invitedBy: { id: bob.userId, email: bob.email, name: 'Bob' },
          acceptable: true,
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
        },
        {
          id: first.id,
          team: { id: acme, name: 'Acme' },
          role: 'viewer',
          invitedBy: { id: ada.userId, email: ada.email, name: 'Ada' },
          acceptable: true,
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    expect(listed.text).not.toContain(first.code);
    expect(listed.text).not.toContain(second.code);
    expect((await received(mallory)).invitations).toEqual([]);

    // A page at a time, as every list.
    const page = await received(grace, '?limit=1');
    expect(page.invitations.map(({ id }) => id)).toEqual([second.id]);
    const rest = await received(grace, `?limit=1&cursor=${encodeURIComponent(String(page.nextCursor))}`);
    expect([rest.invitations.map(({ id }) => id), rest.nextCursor]).toEqual([[first.id], null]);
  });

  it('leave the list once accepted, revoked, expired or their team deleted', async () => {
    const [owner, grace] = await Promise.all([newPerson('Owner'), newPerson('Grace')]);
    const [accepted, revoked, expiring, deleted] = await Promise.all(
      ['Accepted', 'Revoked', 'Expiring', 'Deleted'].map((name) => newTeam(gateway.baseUrl, owner, name)),
    );
    const toAccept = await invite(accepted as string, owner, grace.email);
    const toRevoke = await invite(revoked as string, owner, grace.email);
    await invite(deleted as string, owner, grace.email);
    const now = Date.now();
    clock.now = () => now - 6 * 86_400_000;
    await invite(expiring as string, owner, grace.email);
    clock.now = () => now;
    expect((await received(grace)).invitations).toHaveLength(4);

    expect((await send('POST', '/invitations/accept', grace, { code: toAccept.code })).status).toBe(200);
    expect((await send('DELETE', `/teams/${revoked}/invitations/${toRevoke.id}`, owner)).status).toBe(204);
    expect((await send('DELETE', `/teams/${deleted}`, owner)).status).toBe(204);
    expect((await received(grace)).invitations.map(({ team }) => team.name)).toEqual(['Expiring']);

    clock.now = () => now + 86_400_000 + 1_000;
    expect((await received(grace)).invitations).toEqual([]);
  });

  it('say when accepting would be refused: an inviter since demoted, or gone from the team', async () => {
    const [owner, admin, leaving, grace] = await Promise.all([
      newPerson('Owner'),
      newPerson('Admin'),
      newPerson('Leaving'),
      newPerson('Grace'),
    ]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, admin, 'admin');
    await join(gateway.baseUrl, teamId, owner, leaving, 'admin');
    const byAdmin = await invite(teamId, admin, grace.email, 'developer');
    const byLeaving = await invite(teamId, leaving, grace.email, 'viewer');
    const byOwner = await invite(teamId, owner, grace.email, 'owner');
    expect(
      (await send('PATCH', `/teams/${teamId}/members/${admin.userId}`, owner, { role: 'developer' })).status,
    ).toBe(200);
    expect((await send('DELETE', `/teams/${teamId}/members/${leaving.userId}`, owner)).status).toBe(204);

    const listed = new Map(
      (await received(grace)).invitations.map((invitation) => [invitation.id, invitation]),
    );
    expect(listed.get(byOwner.id)).toEqual(expect.objectContaining({ acceptable: true, role: 'owner' }));
    expect(listed.get(byAdmin.id)).toEqual(
      expect.objectContaining({
        acceptable: false,
        invitedBy: { id: admin.userId, email: admin.email, name: 'Admin' },
      }),
    );
    expect(listed.get(byLeaving.id)).toEqual(
      expect.objectContaining({ acceptable: false, invitedBy: { id: leaving.userId } }),
    );
    // What the list says is what accepting does.
    expect((await send('POST', '/invitations/accept', grace, { code: byAdmin.code })).status).toBe(409);
    expect((await send('POST', '/invitations/accept', grace, { code: byOwner.code })).status).toBe(200);
  });
});
