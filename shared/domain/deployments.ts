import { isoNow } from '../clock.ts';
import * as deployments from '../db/deployments.ts';
import type { Page } from '../db/pages.ts';
import { NotFoundError } from '../errors.ts';
import { ID_PATTERN, newId } from '../ids.ts';
import type { PageRequest } from '../schemas/common.ts';
import type { CreateDeploymentInput } from '../schemas/deployments.ts';
import type { Caller } from './caller.ts';
import { getProject } from './projects.ts';

export type { Deployment } from '../db/deployments.ts';

const isDeploymentId = (id: string): boolean => id.startsWith('dpl_') && ID_PATTERN.test(id.slice(4));

/** Queues a deployment of one of the caller's projects; the branch defaults to its production branch. */
export async function createDeployment(
  caller: Caller,
  input: CreateDeploymentInput,
): Promise<deployments.Deployment> {
  const project = await getProject(caller, input.projectId);
  const now = isoNow();
  const deployment: deployments.Deployment = {
    id: newId('dpl'),
    projectId: project.id,
    branch: input.branch ?? project.productionBranch,
    status: 'queued',
    createdAt: now,
    updatedAt: now,
  };
  await deployments.putDeployment(caller.userId, deployment);
  return deployment;
}

export async function getDeployment(caller: Caller, id: string): Promise<deployments.Deployment> {
  const deployment = isDeploymentId(id) ? await deployments.findDeployment(caller.userId, id) : undefined;
  if (!deployment) throw new NotFoundError(`Deployment ${id} was not found`);
  return deployment;
}

export async function listProjectDeployments(
  caller: Caller,
  projectId: string,
  page: PageRequest,
): Promise<Page<deployments.Deployment>> {
  const project = await getProject(caller, projectId);
  return deployments.listDeploymentsOfProject(caller.userId, project.id, page);
}
