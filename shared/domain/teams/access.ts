import { findRole } from '#shared/db/teams/teams.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ForbiddenError, NotFoundError } from '#shared/model/errors.ts';
import { lowestRoleWith, type Permission, roleAllows, type TeamRole } from '#shared/model/roles.ts';
import { NEVER_BY_TOKENS } from '#shared/model/team-tokens.ts';
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
  // A team token acts in its own team only: naming another is the 404 of a team one is not in.
  if (caller.token) {
    if (teamId === undefined || teamId === caller.team.id) return caller.team;
    throw teamNotFound(teamId);
  }
  if (teamId === undefined || teamId === personalTeamIdOf(caller.userId))
    return personalTeamOf(caller.userId);
  if (!isTeamId(teamId)) throw teamNotFound(teamId);
  return sharedTeam(teamId);
}

/** Takes the caller's role in its team as read beside a resource (shared/db/teams/with-membership.ts). */
export function learnRole(caller: Caller, role: TeamRole | undefined): TeamRole {
  if (role === undefined) throw teamNotFound(caller.team.id);
  caller.team.role = role;
  return role;
}

/** Reads a user's role in a team; undefined when they are not a member. */
export type RoleReader = (teamId: string, userId: string) => Promise<TeamRole | undefined>;

/**
 * The caller's role in its team, read once per request (none for a personal team), by `read`: the
 * call the row is granted (GetItem; a row that reads it beside its resource passes a BatchGetItem
 * read, shared/http/endpoint.ts).
 */
export async function confirmMembership(caller: Caller, read: RoleReader = findRole): Promise<TeamRole> {
  return caller.team.role ?? learnRole(caller, await read(caller.team.id, caller.userId));
}

/** Refuses (403, naming the role it takes) what the caller's role in its team does not allow. */
export function authorize(caller: Caller, permission: Permission): void {
  const { role } = caller.team;
  if (role === undefined) throw new Error("authorize() before the caller's role was known");
  if (caller.token && NEVER_BY_TOKENS.includes(permission)) {
    throw new ForbiddenError(
      `A team token never manages its team, members, invitations or tokens (${permission})`,
    );
  }
  if (!roleAllows(role, permission)) {
    const needed = lowestRoleWith(permission);
    throw new ForbiddenError(
      `This request needs the ${needed} role (${permission}) in team ${caller.team.id}; you are a ${role}`,
    );
  }
}
