import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '#shared/db/pages.ts';
import * as store from '#shared/db/teams/invitations.ts';
import { findRole, findTeam } from '#shared/db/teams/teams.ts';
import { findUser } from '#shared/db/users.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { isAtMost, roleAllows, TEAM_ROLES, type TeamRole } from '#shared/model/roles.ts';
import { clock, isoNow, nowSeconds } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateInvitationInput } from '#shared/schemas/teams/teams.ts';
import { teamClosed } from './closing.ts';
import type { Team } from './teams.ts';

// Invitations into a team. The code is shown once, to the inviter, who passes it on (nothing is
// emailed); only its SHA-256 digest is stored. It is good for one use, by the user whose email was
// invited, for 7 days.

export const INVITATION_DAYS = 7;

const CODE_PREFIX = 'inv_';

const digestOf = (code: string): string => createHash('sha256').update(code).digest('hex');

const notFound = (id: string): NotFoundError => new NotFoundError(`Invitation ${id} was not found`);

const alreadyMember = (teamId: string): ConflictError =>
  new ConflictError(`You are already a member of team ${teamId}`);

const inviterGone = (open: store.OpenInvitation): ConflictError =>
  new ConflictError(
    `Whoever invited you no longer holds the ${open.role} role in team ${open.teamId}, or may no longer invite: ask an owner or admin there for a new invitation`,
  );

export async function createInvitation(
  caller: Caller,
  input: CreateInvitationInput,
): Promise<store.Invitation & { code: string }> {
  const { team } = caller;
  if (team.personal) throw new ConflictError('A personal team cannot be invited into');
  const inviter = team.role ?? 'viewer';
  if (!isAtMost(input.role, inviter)) {
    throw new ForbiddenError(`An invitation grants at most your own role (${inviter}), not ${input.role}`);
  }
  const code = CODE_PREFIX + randomBytes(30).toString('base64url');
  const invitation = {
    id: newId('inv'),
    email: input.email,
    role: input.role,
    invitedBy: caller.userId,
    createdAt: isoNow(),
    expiresAt: new Date(clock.now() + INVITATION_DAYS * 86_400_000).toISOString(),
  };
  await store.insertInvitation(team.id, invitation, digestOf(code));
  return { ...invitation, code };
}

export const listInvitations = (caller: Caller, page: PageRequest): Promise<Page<store.Invitation>> =>
  caller.team.personal
    ? Promise.resolve({ items: [], nextCursor: null })
    : store.listInvitations(caller.team.id, page, nowSeconds());

export async function revokeInvitation(caller: Caller, id: string): Promise<void> {
  if (!isIdOf('inv', id) || caller.team.personal || !(await store.deleteInvitation(caller.team.id, id))) {
    throw notFound(id);
  }
}

/**
 * The roles an invitation's maker must still hold for it to be accepted: the role it grants, and the
 * right to invite at all (an admin's), or above.
 */
export const inviterRolesFor = (granted: TeamRole): TeamRole[] =>
  TEAM_ROLES.filter((role) => isAtMost(granted, role) && roleAllows(role, 'invitations.manage'));

/**
 * Joins the team an invitation names. An unknown, used, revoked or expired code is one 404; a code
 * for another email is 403, so that a code seen by the wrong person is useless to them. An
 * invitation is only as good as its maker's standing: one whose maker no longer holds the role it
 * grants (or may no longer invite: demoted, removed, gone) is refused, 409, and stays listed for an
 * owner or admin to revoke or make again.
 */
export async function acceptInvitation(
  caller: Caller,
  code: string,
): Promise<{ team: Team; role: TeamRole }> {
  const gone = new NotFoundError('This invitation code is unknown, used, revoked or expired');
  const digest = digestOf(code);
  const open = code.startsWith(CODE_PREFIX) ? await store.findByCode(digest) : undefined;
  if (!open || open.expiresAt <= nowSeconds()) throw gone;
  const user = await findUser(caller.userId);
  if (!user || user.email !== open.email) {
    throw new ForbiddenError("This invitation is for another email address than this account's");
  }
  const invitedBy = open.invitedBy ?? (await store.findInviter(open.teamId, open.invitationId));
  if (invitedBy === undefined) throw gone;
  // One's own invitation (of one's own email) cannot be checked and joined in one transaction (one
  // item, twice): its maker is in the team already, or has left it, and their invitation with them.
  if (invitedBy === user.id) {
    if ((await findRole(open.teamId, user.id)) !== undefined) throw alreadyMember(open.teamId);
    throw inviterGone(open);
  }
  const joinedAt = isoNow();
  const outcome = await store.acceptInvitation(
    digest,
    open,
    { userId: user.id, email: user.email, name: user.name, role: open.role, joinedAt },
    { userId: invitedBy, roles: inviterRolesFor(open.role) },
    clock.now(),
  );
  if (outcome === 'member') throw alreadyMember(open.teamId);
  if (outcome === 'inviter') throw inviterGone(open);
  if (outcome === 'closing') throw teamClosed(open.teamId);
  const team = outcome === 'accepted' ? await findTeam(open.teamId) : undefined;
  if (!team) throw gone;
  return { team: { ...team, personal: false, role: open.role }, role: open.role };
}
