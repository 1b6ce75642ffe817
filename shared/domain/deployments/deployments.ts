import * as deployments from '#shared/db/deployments/deployments.ts';
import { listDeployments as listStored } from '#shared/db/deployments/lists.ts';
import { applyTransition, putDeployment } from '#shared/db/deployments/writes.ts';
import type { Page } from '#shared/db/pages.ts';
import { projectWithVariablesHead, snapshotForDeployment } from '#shared/domain/environment/variables.ts';
import { promoteIfNewer } from '#shared/domain/production.ts';
import { getProject } from '#shared/domain/projects.ts';
import { authorize } from '#shared/domain/teams/access.ts';
import { readInTeam } from '#shared/domain/teams/reads.ts';
import { mustReachDeployment, mustTarget, reaches } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { deploymentTarget } from '#shared/model/deployments/target.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import { logError } from '#shared/runtime/log.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateDeploymentInput, DeploymentReport } from '#shared/schemas/deployments/deployments.ts';
import type { DeploymentFilterQuery } from '#shared/schemas/deployments/queries.ts';

export type { Deployment, DeploymentEvent } from '#shared/db/deployments/deployments.ts';

const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);

const notFound = (id: string) => new NotFoundError(`Deployment ${id} was not found`);

/**
 * Queues a deployment of one of the caller's projects (the branch defaults to its production
 * branch), or, with `redeployOf`, of the same project, branch and commit as one of their deployments.
 */
export async function createDeployment(
  caller: Caller,
  input: CreateDeploymentInput,
): Promise<deployments.Deployment> {
  const source = input.redeployOf === undefined ? undefined : await getDeployment(caller, input.redeployOf);
  const origin = source ? { ...source, head: undefined } : await originOf(caller, input);
  // The role came with what was just read (the row reads the membership with its resource).
  authorize(caller, 'deployments.write');
  if (!reaches(caller, origin.projectId))
    throw new NotFoundError(`Project ${origin.projectId} was not found`);
  const now = isoNow();
  const deployment: deployments.Deployment = {
    id: newId('dpl'),
    projectId: origin.projectId,
    branch: origin.branch,
    status: 'queued',
    // A redeploy keeps its original's; otherwise the one asked for, else the branch decides.
    target:
      source?.target ??
      input.target ??
      deploymentTarget(origin.branch, 'productionBranch' in origin ? origin.productionBranch : ''),
    createdAt: now,
    updatedAt: now,
    ...(source?.commitSha === undefined ? {} : { commitSha: source.commitSha }),
    ...(source === undefined ? {} : { redeployOf: source.id }),
  };
  mustTarget(caller, deployment.target, 'create them');
  // The variables it builds with, taken first: no deployment exists without its snapshot (if any).
  await snapshotForDeployment(deployment, deployment.target, origin.head);
  await putDeployment(caller.team.partition, deployment, {
    ...(deployment.target === 'production' && 'promotesOver' in origin
      ? { promotesOver: origin.promotesOver }
      : {}),
  });
  return deployment;
}

/**
 * What a new (not redeployed) deployment deploys: its project, branch, and the production branch,
 * and its variables' head as the project carries it (one read for both).
 */
async function originOf(caller: Caller, input: CreateDeploymentInput) {
  // The schema requires projectId whenever redeployOf is absent.
  const { project, head } = await projectWithVariablesHead(caller, input.projectId ?? '');
  return {
    projectId: project.id,
    branch: input.branch ?? project.productionBranch,
    productionBranch: project.productionBranch,
    head,
    // What its automatic promotion would replace, as read now (checked again by its write).
    promotesOver: project.autoPromotion ? (project.production?.deploymentId ?? null) : undefined,
  };
}

export async function getDeployment(caller: Caller, id: string): Promise<deployments.Deployment> {
  // An id of another shape is 404 in any team, member or not: nothing to read.
  if (!isDeploymentId(id)) throw notFound(id);
  const item = await readInTeam(caller, deployments.deploymentRead(caller.team.partition, id));
  if (!item || !reaches(caller, String(item.projectId))) throw notFound(id);
  return deployments.toDeployment(item);
}

/** A deployment's status history, oldest first. */
export async function listDeploymentEvents(
  caller: Caller,
  id: string,
): Promise<deployments.DeploymentEvent[]> {
  await reached(caller, id);
  const events = isDeploymentId(id)
    ? await deployments.findDeploymentEvents(caller.team.partition, id)
    : undefined;
  if (!events) throw notFound(id);
  return events;
}

/**
 * Moves one of the owner's deployments to the reported status, if its lifecycle allows it from the
 * status it is in at the moment of the write (one conditional UpdateItem, read nothing first);
 * otherwise a ConflictError naming that status, which the refused write answers with. The one way
 * any caller (the API, the local builder) changes a deployment's status.
 */
export async function advanceDeployment(
  ownerId: string,
  id: string,
  report: DeploymentReport,
): Promise<deployments.Deployment> {
  if (!isDeploymentId(id)) throw notFound(id);
  const refused = (status: string) =>
    new ConflictError(`Deployment ${id} is ${status}; it cannot become ${report.status}`);
  const result = await applyTransition(
    ownerId,
    { id },
    {
      to: report.status,
      at: isoNow(),
      ...(report.message === undefined ? {} : { message: report.message }),
      ...(report.url === undefined ? {} : { url: report.url }),
      ...(report.commitSha === undefined ? {} : { commitSha: report.commitSha }),
    },
  );
  if (result.outcome === 'missing') throw notFound(id);
  if (result.outcome === 'refused') throw refused(result.current);
  if (result.deployment.status === 'ready') {
    await promoteWhenReady(ownerId, result.deployment, result.promotesOver);
  }
  return result.deployment;
}

/**
 * A production deployment that became ready may become production (shared/domain/production.ts),
 * at once, so that production has moved by the time the report answers. The status change stands
 * whatever happens here, so a failure is logged rather than answered (the report succeeded, and
 * repeating it would be refused as a change from `ready`): the deployments stream's consumer
 * (functions/production/auto-promote.ts) makes the same move from the status change itself, with the stream's
 * retries, so a failure here, or a request that dies before it, only delays it.
 */
async function promoteWhenReady(
  ownerId: string,
  deployment: deployments.Deployment,
  promotesOver: string | null | undefined,
): Promise<void> {
  try {
    await promoteIfNewer(ownerId, deployment, promotesOver);
  } catch (error) {
    logError('automatic promotion failed', { deploymentId: deployment.id }, error);
  }
}

/**
 * A status report on one of the caller's deployments. A team token without production may not report
 * on a production deployment: a report of `ready` promotes it (auto-promotion), which the token may not.
 */
export const reportDeploymentEvent = (
  caller: Caller,
  id: string,
  report: DeploymentReport,
): Promise<deployments.Deployment> =>
  mustReachDeployment(caller, id, { doing: 'report on them' }).then(() =>
    advanceDeployment(caller.team.partition, id, report),
  );

/** Cancels one of the caller's deployments while it is queued or building (not a token's without its target). */
export const cancelDeployment = (caller: Caller, id: string): Promise<deployments.Deployment> =>
  mustReachDeployment(caller, id, { doing: 'cancel them' }).then(() =>
    advanceDeployment(caller.team.partition, id, { status: 'canceled' }),
  );

/** A team token limited to some projects reaches only their deployments (team-access.ts). */
const reached = (caller: Caller, id: string): Promise<void> => mustReachDeployment(caller, id);

type Filters = Pick<DeploymentFilterQuery, 'status' | 'branch' | 'target'>;

const filterOf = (query: Filters) => ({
  ...(query.status === undefined ? {} : { statuses: query.status }),
  ...(query.branch === undefined ? {} : { branch: query.branch }),
  ...(query.target === undefined ? {} : { target: query.target }),
});

/** A page of one of the caller's projects' deployments, newest first, filtered by status, branch and target. */
export async function listProjectDeployments(
  caller: Caller,
  projectId: string,
  query: Filters,
  page: PageRequest,
): Promise<Page<deployments.Deployment>> {
  const project = await getProject(caller, projectId);
  return listStored(caller.team.partition, { projectId: project.id, ...filterOf(query) }, page);
}

/** A page of all of the caller's deployments, newest first, filtered by project, status, branch and target. */
export async function listDeployments(
  caller: Caller,
  query: DeploymentFilterQuery,
  page: PageRequest,
): Promise<Page<deployments.Deployment>> {
  const projectId =
    query.projectId === undefined ? undefined : (await getProject(caller, query.projectId)).id;
  // A team token limited to some projects lists theirs only.
  const projectIds = projectId === undefined ? caller.token?.projectIds : undefined;
  return listStored(
    caller.team.partition,
    {
      ...(projectId === undefined ? {} : { projectId }),
      ...(projectIds ? { projectIds } : {}),
      ...filterOf(query),
    },
    page,
  );
}
