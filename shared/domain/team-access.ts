import { findDeployment } from '#shared/db/deployments.ts';
import { findRole } from '#shared/db/teams.ts';
import { getItem, getWithMembership, type ItemRead } from '#shared/db/with-membership.ts';
import type { Caller } from '#shared/model/caller.ts';
import type { DeploymentTarget } from '#shared/model/deployment-target.ts';
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

/**
 * Whether the caller reaches a project: every project of its team, but a team token limited to some
 * projects reaches only those. Another is the 404 of an unknown one.
 */
export const reaches = (caller: Caller, projectId: string): boolean =>
  caller.token?.projectIds === undefined || caller.token.projectIds.includes(projectId);

/** Refuses (403) what a team token made without a target does on that target's deployments. */
export function mayTarget(caller: Caller, target: DeploymentTarget, what: string): void {
  if (caller.token && !caller.token.targets.includes(target)) {
    throw new ForbiddenError(`This team token is not for ${target} deployments: it may not ${what}`);
  }
}

/** Refuses (403) a team token limited to some projects what spans them all (a project's creation, webhooks). */
export function spansTeam(caller: Caller, what: string): void {
  if (caller.token?.projectIds !== undefined) {
    throw new ForbiddenError(`This team token is limited to some projects: it may not ${what}`);
  }
}

/** 404 for a project a team token limited to others asks for (an id known from the path). */
export function mustReachProject(caller: Caller, projectId: string): void {
  if (!reaches(caller, projectId)) throw new NotFoundError(`Project ${projectId} was not found`);
}

/**
 * For a team token, the deployment it names, read first: 404 unless its project is one the token
 * reaches, and (with `target`) 403 unless the token is for its target. Routes that go straight to a
 * deployment's item by id cannot tell its project otherwise; anyone else reads nothing here.
 */
export async function mustReachDeployment(
  caller: Caller,
  id: string,
  target?: { doing: string },
): Promise<void> {
  if (!caller.token || (caller.token.projectIds === undefined && target === undefined)) return;
  const deployment = await findDeployment(caller.team.partition, id);
  if (!deployment || !reaches(caller, deployment.projectId)) {
    throw new NotFoundError(`Deployment ${id} was not found`);
  }
  if (target) mayTarget(caller, deployment.target, target.doing);
}
