import { createHash, randomBytes } from 'node:crypto';
import * as store from '#shared/db/invitations.ts';
import type { Page } from '#shared/db/pages.ts';
import { findTeam } from '#shared/db/teams.ts';
import { findUser } from '#shared/db/users.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { isAtMost, type TeamRole } from '#shared/model/roles.ts';
import { clock, isoNow, nowSeconds } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateInvitationInput } from '#shared/schemas/teams.ts';
import type { Team } from './teams.ts';

// Invitations into a team. The code is shown once, to the inviter, who passes it on (nothing is
// emailed); only its SHA-256 digest is stored. It is good for one use, by the user whose email was
// invited, for 7 days.

export const INVITATION_DAYS = 7;

const CODE_PREFIX = 'inv_';

const digestOf = (code: string): string => createHash('sha256').update(code).digest('hex');

const notFound = (id: string): NotFoundError => new NotFoundError(`Invitation ${id} was not found`);

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
    createdAt: isoNow(),
    expiresAt: new Date(clock.now() + INVITATION_DAYS * 86_400_000).toISOString(),
  };
  await store.insertInvitation(team.id, { ...invitation, invitedBy: caller.userId }, digestOf(code));
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
 * Joins the team an invitation names. An unknown, used, revoked or expired code is one 404; a code
 * for another email is 403, so that a code seen by the wrong person is useless to them.
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
  const joinedAt = isoNow();
  const outcome = await store.acceptInvitation(digest, open, {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: open.role,
    joinedAt,
  });
  if (outcome === 'member') throw new ConflictError(`You are already a member of team ${open.teamId}`);
  const team = outcome === 'accepted' ? await findTeam(open.teamId) : undefined;
  if (!team) throw gone;
  return { team: { ...team, personal: false, role: open.role }, role: open.role };
}
