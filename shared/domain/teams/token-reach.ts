import { findDeployment } from '#shared/db/deployments/deployments.ts';
import type { Caller } from '#shared/model/caller.ts';
import { DEPLOYMENT_TARGETS, type DeploymentTarget } from '#shared/model/deployments/target.ts';
import { ForbiddenError, NotFoundError } from '#shared/model/errors.ts';

// What a team token reaches beyond its scopes and its team: the projects it was made for, the
// targets it was made for, and nothing that spans every project when it is limited to some. For
// any other caller these answer yes at no cost.

/**
 * Whether the caller reaches a project: every project of its team, but a team token limited to some
 * projects reaches only those. Another is the 404 of an unknown one.
 */
export const reaches = (caller: Caller, projectId: string): boolean =>
  caller.token?.projectIds === undefined || caller.token.projectIds.includes(projectId);

/** Refuses (403) what a team token made without a target does on that target's deployments. */
export function mustTarget(caller: Caller, target: DeploymentTarget, what: string): void {
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
 * deployment's item by id cannot tell its project otherwise; anyone else, and a token that reaches
 * every project and (or, without `target`) every target, reads nothing here.
 */
export async function mustReachDeployment(
  caller: Caller,
  id: string,
  target?: { doing: string },
): Promise<void> {
  const { token } = caller;
  if (!token) return;
  const limitedTargets =
    target !== undefined && DEPLOYMENT_TARGETS.some((each) => !token.targets.includes(each));
  if (token.projectIds === undefined && !limitedTargets) return;
  const deployment = await findDeployment(caller.team.partition, id);
  if (!deployment || !reaches(caller, deployment.projectId)) {
    throw new NotFoundError(`Deployment ${id} was not found`);
  }
  if (target) mustTarget(caller, deployment.target, target.doing);
}
