import { insertUser } from '#shared/db/users.ts';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import { newId } from '#shared/model/ids.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import type { Scope } from '#shared/model/scopes.ts';
import { call } from './http.ts';
import { uniqueEmail } from './names.ts';
import type { TestCaller } from './users.ts';

// People and teams for tests: a user with a stored profile (an email that invitations can name) and a
// key, a team they own, and members that joined it the way users do, through an invitation.

export interface TestPerson extends TestCaller {
  email: string;
}

/**
 * A user as registration stores one (its password unusable, its id of the service's shape: the
 * users' list, GET /api/v1/users, shows every user to other files' tests), and a key issued as login
 * issues it.
 */
export async function newPerson(
  name = 'Ada',
  options: { scopes?: Scope[]; rateLimit?: number } = {},
): Promise<TestPerson> {
  const userId = newId('usr');
  const email = uniqueEmail(name.toLowerCase());
  await insertUser(
    { id: userId, email, name, role: 'member', createdAt: new Date().toISOString() },
    'unusable',
  );
  const issued = await issueApiKey({
    userId,
    role: 'member',
    name: 'test',
    ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  return { userId, key: issued.apiKey, keyId: issued.key.id, email };
}

/** A new team owned by `owner`; its id. */
export async function newTeam(baseUrl: string, owner: TestCaller, name = 'Team'): Promise<string> {
  const created = await call(`${baseUrl}/teams`, { method: 'POST', key: owner.key, json: { name } });
  if (created.status !== 201) throw new Error(`team not created: ${created.status} ${created.text}`);
  return (created.body as { id: string }).id;
}

/** Invites `person` into the team as `role` (the inviter an admin or owner there), and accepts. */
export async function join(
  baseUrl: string,
  teamId: string,
  inviter: TestCaller,
  person: TestPerson,
  role: TeamRole,
): Promise<void> {
  const invited = await call(`${baseUrl}/teams/${teamId}/invitations`, {
    method: 'POST',
    key: inviter.key,
    json: { email: person.email, role },
  });
  if (invited.status !== 201) throw new Error(`not invited: ${invited.status} ${invited.text}`);
  const { code } = invited.body as { code: string };
  const accepted = await call(`${baseUrl}/invitations/accept`, {
    method: 'POST',
    key: person.key,
    json: { code },
  });
  if (accepted.status !== 200) throw new Error(`not accepted: ${accepted.status} ${accepted.text}`);
}

/** A team with a member of each role besides its owner. */
export async function teamOfEveryRole(baseUrl: string) {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(baseUrl, owner);
  const [admin, developer, viewer] = await Promise.all([
    newPerson('Admin'),
    newPerson('Dev'),
    newPerson('Viewer'),
  ]);
  await Promise.all([
    join(baseUrl, teamId, owner, admin, 'admin'),
    join(baseUrl, teamId, owner, developer, 'developer'),
    join(baseUrl, teamId, owner, viewer, 'viewer'),
  ]);
  return { teamId, owner, admin, developer, viewer };
}
