import { closeUnchanged } from '#shared/db/audit/scope.ts';
import type { Page } from '#shared/db/pages.ts';
import * as store from '#shared/db/teams/members.ts';
import { findMember, findRole, type Member } from '#shared/db/teams/teams.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { authorize } from './access.ts';
import { memberProfile } from './teams.ts';

// Who is in a team and as what. An admin manages members up to admin; owners are an owner's to make
// and unmake; anyone may leave; the last owner may neither leave nor be demoted nor removed.

const memberNotFound = (userId: string): NotFoundError => new NotFoundError(`Member ${userId} was not found`);

const personalRefused = (): ConflictError =>
  new ConflictError('A personal team has one member, its owner: it cannot be joined, left or changed');

export async function listMembers(caller: Caller, page: PageRequest): Promise<Page<Member>> {
  const { team } = caller;
  if (team.personal) return { items: [await memberProfile(caller.userId, 'owner')], nextCursor: null };
  return store.listMembers(team.id, page);
}

/** Refuses a change that touches an owner unless the caller is one. */
function mustBeAllowedToChange(caller: Caller, from: TeamRole, to: TeamRole | undefined): void {
  if (from === 'owner' || to === 'owner') authorize(caller, 'owners.write');
}

function settled(outcome: store.MemberChange, userId: string): void {
  if (outcome === 'changed') throw new ConflictError(`Member ${userId} changed meanwhile: read them again`);
  if (outcome === 'last_owner') {
    throw new ConflictError(
      'The last owner cannot leave, be removed or be demoted: make another owner first',
    );
  }
}

async function currentRole(caller: Caller, userId: string): Promise<TeamRole> {
  if (caller.team.personal) throw personalRefused();
  const role = userId === caller.userId ? caller.team.role : await findRole(caller.team.id, userId);
  if (role === undefined) throw memberNotFound(userId);
  return role;
}

/** Changes a member's role; their current role again changes nothing, and is not an event. */
export async function changeRole(caller: Caller, userId: string, role: TeamRole): Promise<Member> {
  const from = await currentRole(caller, userId);
  mustBeAllowedToChange(caller, from, role);
  if (from === role) closeUnchanged();
  else settled(await store.changeRole(caller.team.id, userId, from, role), userId);
  const member = await findMember(caller.team.id, userId);
  if (!member) throw memberNotFound(userId);
  return member;
}

/** Removes a member; removing oneself is leaving, which any member may do. */
export async function removeMember(caller: Caller, userId: string): Promise<void> {
  const from = await currentRole(caller, userId);
  if (userId !== caller.userId) {
    authorize(caller, 'members.write');
    mustBeAllowedToChange(caller, from, undefined);
  }
  settled(await store.removeMember(caller.team.id, userId, from), userId);
}
