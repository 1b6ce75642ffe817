import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import type { Page } from '#shared/db/pages.ts';
import { indexes, tables } from '#shared/db/tables.ts';
import type { DeploymentState } from '#shared/model/deployments/states.ts';
import type { DeploymentTarget } from '#shared/model/deployments/target.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { type Deployment, table, toDeployment } from './deployments.ts';

// Pages of a deployment list: the owner's (the table's partition) or one project's (`byProject`),
// newest first, each one Query. Filters (any of several statuses, a branch, a target) do not have indexes of
// their own: an index keyed on the status moves on every status change (two write units per index
// per change), and one per filter combination made a deployment's short life cost 43.5 units. A
// filtered page is a FilterExpression on the list's Query over a bounded window of the list (see
// FILTER_WINDOW): the page is full whenever that window holds a page of matches; when it does not,
// the page holds what the window had and its cursor continues after the window, so no deployment is
// skipped and a list never ends early; `nextCursor` is null only at the list's end.

/**
 * Which deployments a list holds: one project's (already checked to be the owner's, so its partition
 * of `byProject` holds only theirs) or all the owner's.
 */
export interface DeploymentFilter {
  projectId?: string;
  statuses?: readonly DeploymentState[];
  branch?: string;
  target?: DeploymentTarget;
  /** Only these projects' (a team token limited to them); all the owner's when absent. */
  projectIds?: readonly string[];
}

/**
 * How many deployments of the list one filtered page reads at most: ten per row of the page. A
 * filter that matches one deployment in ten or more fills every page; a rarer one reads no more
 * (about 0.6 KB a deployment: at the default page of 20, at most 16 read units).
 */
export const FILTER_WINDOW = (limit: number): number => Math.min(1000, 10 * (limit + 1));

const isFiltered = (filter: DeploymentFilter): boolean =>
  filter.statuses !== undefined ||
  filter.branch !== undefined ||
  filter.target !== undefined ||
  filter.projectIds !== undefined;

/** The list's Query: the owner's partition of the table, or the project's of `byProject`. */
function listQuery(ownerId: string, filter: DeploymentFilter) {
  const { byProject } = indexes.deployments;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  if (filter.statuses !== undefined) {
    names['#status'] = 'status';
    filter.statuses.forEach((status, index) => {
      values[`:status${index}`] = status;
    });
    conditions.push(`#status IN (${filter.statuses.map((_, index) => `:status${index}`).join(', ')})`);
  }
  if (filter.branch !== undefined) {
    names['#branch'] = 'branch';
    values[':branch'] = filter.branch;
    conditions.push('#branch = :branch');
  }
  if (filter.target !== undefined) {
    // Items from before targets were stored have none: they are previews (shared/db/deployments/deployments.ts).
    names['#target'] = 'target';
    values[':target'] = filter.target;
    conditions.push(
      filter.target === 'preview'
        ? '(#target = :target OR attribute_not_exists(#target))'
        : '#target = :target',
    );
  }
  if (filter.projectIds !== undefined) {
    names['#project'] = 'projectId';
    filter.projectIds.forEach((projectId, index) => {
      values[`:project${index}`] = projectId;
    });
    // An empty list matches nothing (IN needs one operand at least).
    conditions.push(
      filter.projectIds.length === 0
        ? 'attribute_not_exists(#project)'
        : `#project IN (${filter.projectIds.map((_, index) => `:project${index}`).join(', ')})`,
    );
  }
  return {
    TableName: table(),
    ...(filter.projectId === undefined ? {} : { IndexName: byProject.name }),
    KeyConditionExpression: '#list = :list',
    names: {
      ...names,
      '#list': filter.projectId === undefined ? tables.deployments.partitionKey : byProject.partitionKey,
    },
    values: { ...values, ':list': filter.projectId ?? ownerId },
    filter: conditions.length > 0 ? conditions.join(' AND ') : undefined,
  };
}

/**
 * A page of the owner's deployments, or of one of their projects', newest first, filtered by
 * status (any of several), branch and target: one Query. The cursor is bound to the owner, the list and its
 * filters, and holds the id to continue below.
 */
export async function listDeployments(
  ownerId: string,
  filter: DeploymentFilter,
  page: PageRequest,
): Promise<Page<Deployment>> {
  const scope = `deployments:${JSON.stringify([ownerId, filter.projectId ?? null, filter.statuses ?? null, filter.branch ?? null, filter.target ?? null, filter.projectIds ?? null])}`;
  const below = page.cursor === undefined ? undefined : await decodeCursor(scope, page.cursor);
  const query = listQuery(ownerId, filter);
  const filtered = isFiltered(filter);
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: query.TableName,
      ...(query.IndexName === undefined ? {} : { IndexName: query.IndexName }),
      KeyConditionExpression: `${query.KeyConditionExpression}${below === undefined ? '' : ' AND #id < :below'}`,
      ...(query.filter === undefined ? {} : { FilterExpression: query.filter }),
      ExpressionAttributeNames: { ...query.names, ...(below === undefined ? {} : { '#id': 'id' }) },
      ExpressionAttributeValues: { ...query.values, ...(below === undefined ? {} : { ':below': below }) },
      ScanIndexForward: false,
      // One more than the page, so that the last page says so; a filtered page reads its window.
      Limit: filtered ? FILTER_WINDOW(page.limit) : page.limit + 1,
    }),
  );
  const items = Items.slice(0, page.limit);
  const last = items.at(-1);
  // More matches than the page: continue below its last row. Fewer, but the window ended before the
  // list did: continue below the window, whose rest matched nothing.
  const continueBelow =
    Items.length > page.limit && last !== undefined
      ? String(last.id)
      : filtered && LastEvaluatedKey !== undefined
        ? String(LastEvaluatedKey.id)
        : undefined;
  return {
    items: items.map(toDeployment),
    nextCursor: continueBelow === undefined ? null : await encodeCursor(scope, continueBelow),
  };
}
