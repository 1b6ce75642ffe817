import { findRole } from '#shared/db/teams.ts';
import { getItem, getWithMembership, type ItemRead } from '#shared/db/with-membership.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ForbiddenError, NotFoundError } from '#shared/model/errors.ts';
import { lowestRoleWith, type Permission, roleAllows, type TeamRole } from '#shared/model/roles.ts';
import {
  isTeamId,
  personalTeamIdOf,
  personalTeamOf,
  sharedTeam,
  type TeamContext,
} from '#shared/model/teams.ts';

// Which team a request acts in, and whether its caller may act there. A team the caller is not in
// is the same 404 as one that does not exist, on every route, so an answer never confirms that
// someone else's team exists.

export const teamNotFound = (teamId: string): NotFoundError =>
  new NotFoundError(`Team ${teamId} was not found`);

/** The team a request names (`?teamId=` or the path), or the caller's personal team; no read yet. */
export function teamNamed(caller: Caller, teamId: string | undefined): TeamContext {
  if (teamId === undefined || teamId === personalTeamIdOf(caller.userId))
    return personalTeamOf(caller.userId);
  if (!isTeamId(teamId)) throw teamNotFound(teamId);
  return sharedTeam(teamId);
}

/** Takes the caller's role in its team as read beside a resource (shared/db/with-membership.ts). */
export function learnRole(caller: Caller, role: TeamRole | undefined): TeamRole {
  if (role === undefined) throw teamNotFound(caller.team.id);
  caller.team.role = role;
  return role;
}

/** The caller's role in its team, read once per request (none for a personal team). */
export async function confirmMembership(caller: Caller): Promise<TeamRole> {
  return caller.team.role ?? learnRole(caller, await findRole(caller.team.id, caller.userId));
}

/** Refuses (403, naming the role it takes) what the caller's role in its team does not allow. */
export function authorize(caller: Caller, permission: Permission): void {
  const { role } = caller.team;
  if (role === undefined) throw new Error("authorize() before the caller's role was known");
  if (!roleAllows(role, permission)) {
    const needed = lowestRoleWith(permission);
    throw new ForbiddenError(
      `This request needs the ${needed} role (${permission}) in team ${caller.team.id}; you are a ${role}`,
    );
  }
}

/**
 * Reads an item of the caller's team; where their role there is not known yet, in the same call as
 * their membership (404 for the team when they are not in it). The routes that take this path say
 * so in their row (`membership: 'withResource'`), and authorize after it, before any write.
 */
export async function readInTeam(
  caller: Caller,
  read: ItemRead,
): Promise<Record<string, unknown> | undefined> {
  if (caller.team.role !== undefined) return getItem(read);
  const { item, role } = await getWithMembership(read, caller.team.id, caller.userId);
  learnRole(caller, role);
  return item;
}
