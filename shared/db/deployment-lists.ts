import type { DeploymentState } from '#shared/model/deployment-states.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { type Deployment, table, toDeployment } from './deployments.ts';
import { mergedQueryPage, type Page } from './pages.ts';
import { tables } from './tables.ts';

// Pages of a deployment list: the owner's, or one project's, filtered by status and branch.

/** Which deployments a list holds: one project's (already checked to be the owner's) or all the owner's. */
export interface DeploymentFilter {
  projectId?: string;
  statuses?: readonly DeploymentState[];
  branch?: string;
}

type ListIndex = Exclude<keyof typeof tables.deployments.indexes, 'unfinished'>;

/** The index (none: the table itself) and partition of a list narrowed by at most one status and the branch. */
function partitionOf(
  ownerId: string,
  { projectId, branch }: DeploymentFilter,
  status: DeploymentState | undefined,
): [ListIndex | undefined, string] {
  const list = projectId ?? ownerId;
  const of = projectId === undefined ? 'Owner' : 'Project';
  if (status !== undefined && branch !== undefined)
    return [`by${of}BranchStatus`, `${list}#${status}#${branch}`];
  if (status !== undefined) return [`by${of}Status`, `${list}#${status}`];
  if (branch !== undefined) return [`by${of}Branch`, `${list}#${branch}`];
  return [projectId === undefined ? undefined : 'byProject', list];
}

function partitionQuery(ownerId: string, filter: DeploymentFilter, status: DeploymentState | undefined) {
  const [index, value] = partitionOf(ownerId, filter, status);
  const definition = tables.deployments;
  return {
    TableName: table(),
    ...(index === undefined ? {} : { IndexName: index }),
    KeyConditionExpression: '#list = :list',
    ExpressionAttributeNames: {
      '#list': index === undefined ? definition.partitionKey : definition.indexes[index].partitionKey,
    },
    ExpressionAttributeValues: { ':list': value },
  };
}

/**
 * A page of the owner's deployments, or of one of their projects', newest first, filtered by
 * status (any of several) and branch. The cursor is bound to the owner, the list and its filters.
 */
export async function listDeployments(
  ownerId: string,
  filter: DeploymentFilter,
  page: PageRequest,
): Promise<Page<Deployment>> {
  const statuses = filter.statuses === undefined ? [undefined] : [...filter.statuses];
  const scope = `deployments:${JSON.stringify([ownerId, filter.projectId ?? null, filter.statuses ?? null, filter.branch ?? null])}`;
  const result = await mergedQueryPage(
    scope,
    statuses.map((status) => partitionQuery(ownerId, filter, status)),
    page,
  );
  return { items: result.items.map(toDeployment), nextCursor: result.nextCursor };
}
