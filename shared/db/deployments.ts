import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import {
  DEPLOYMENT_STATES,
  type DeploymentState,
  ENTERED_AT,
  predecessorsOf,
  type ReportableState,
} from '#shared/model/deployment-states.ts';
import { clock } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type {
  DeploymentEvent as DeploymentEventSchema,
  Deployment as DeploymentSchema,
} from '#shared/schemas/resources.ts';
import { db } from './client.ts';
import { conditionally, putNew } from './conditional.ts';
import { mergedQueryPage, type Page } from './pages.ts';
import { indexes, tableName, tables } from './tables.ts';

// Deployments live under their owner (owner-scoped get by id; the owner's list) and are indexed per
// list filter (shared/db/tables.ts): each index's partition is the list and the filter, sorted by id,
// so every filtered list is a Query per status, merged newest first. The status history is a list
// on the item, appended by the same conditional UpdateItem that changes the status: one write, so
// history and status never disagree and a lost race leaves no event behind.

const table = (): string => tableName('deployments');

/** A deployment as the API shows it: the response schema's type, so no field goes undocumented. */
export type Deployment = z.output<typeof DeploymentSchema>;
export type DeploymentEvent = z.output<typeof DeploymentEventSchema>;

const OPTIONAL_FIELDS = [
  'buildingAt',
  'readyAt',
  'erroredAt',
  'canceledAt',
  'errorMessage',
  'url',
  'commitSha',
  'redeployOf',
] as const;

const statusOf = (value: unknown): DeploymentState =>
  DEPLOYMENT_STATES.find((state) => state === value) ?? 'error';

export const toDeployment = (item: Record<string, unknown>): Deployment => {
  const deployment: Deployment = {
    id: String(item.id),
    projectId: String(item.projectId),
    branch: String(item.branch),
    status: statusOf(item.status),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  for (const field of OPTIONAL_FIELDS) {
    if (typeof item[field] === 'string') deployment[field] = item[field];
  }
  return deployment;
};

const toEvent = (entry: Record<string, unknown>): DeploymentEvent =>
  // Reads of the build environment are entries too (shared/db/build-env-reads.ts).
  entry.type === 'build-env-read'
    ? { type: 'build-env-read', keyId: String(entry.keyId), at: String(entry.at) }
    : toStatusEvent(entry);

const toStatusEvent = (entry: Record<string, unknown>): DeploymentEvent => ({
  status: statusOf(entry.status),
  at: String(entry.at),
  ...(typeof entry.message === 'string' ? { message: entry.message } : {}),
  ...(typeof entry.url === 'string' ? { url: entry.url } : {}),
  ...(typeof entry.commitSha === 'string' ? { commitSha: entry.commitSha } : {}),
});

/** The attributes that put a deployment in each filtered list; those with the status change with it. */
function listKeys(ownerId: string, projectId: string, branch: string, status: DeploymentState) {
  return {
    projectStatus: `${projectId}#${status}`,
    projectBranch: `${projectId}#${branch}`,
    projectBranchStatus: `${projectId}#${status}#${branch}`,
    ownerStatus: `${ownerId}#${status}`,
    ownerBranch: `${ownerId}#${branch}`,
    ownerBranchStatus: `${ownerId}#${status}#${branch}`,
  };
}

export async function putDeployment(ownerId: string, deployment: Deployment): Promise<void> {
  await putNew(
    (input) => db.send(new PutCommand(input)),
    {
      TableName: table(),
      Item: {
        ownerId,
        ...deployment,
        ...listKeys(ownerId, deployment.projectId, deployment.branch, deployment.status),
        activeStatus: deployment.status,
        events: [
          {
            status: deployment.status,
            at: deployment.createdAt,
            ...(deployment.commitSha === undefined ? {} : { commitSha: deployment.commitSha }),
          },
        ],
      },
    },
    'id',
  );
}

/**
 * Gives a deployment written before the list indexes existed its list keys and, while unfinished,
 * its place in the builder's work list. Conditional on its status as read, so a transition that
 * gets there first keeps the keys it wrote. False when there was nothing to do.
 */
export async function addMissingListKeys(item: Record<string, unknown>): Promise<boolean> {
  const status = statusOf(item.status);
  const ownerId = String(item.ownerId);
  const keys = listKeys(ownerId, String(item.projectId), String(item.branch), status);
  const unfinished = status === 'queued' || status === 'building';
  const added = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id: String(item.id) },
        UpdateExpression: `SET ${Object.keys(keys)
          .map((name) => `${name} = :${name}`)
          .join(', ')}${unfinished ? ', activeStatus = :status' : ''}`,
        ConditionExpression:
          'attribute_exists(id) AND attribute_not_exists(ownerStatus) AND #status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...Object.fromEntries(Object.entries(keys).map(([name, value]) => [`:${name}`, value])),
          ':status': status,
        },
      }),
    ),
  );
  return !added.failed;
}

async function findItem(ownerId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { ownerId, id } }));
  return Item;
}

export async function findDeployment(ownerId: string, id: string): Promise<Deployment | undefined> {
  const item = await findItem(ownerId, id);
  return item ? toDeployment(item) : undefined;
}

/**
 * A deployment's status history, oldest first, or undefined when it is not the owner's. An item
 * written before histories were kept starts with its creation.
 */
export async function findDeploymentEvents(
  ownerId: string,
  id: string,
): Promise<DeploymentEvent[] | undefined> {
  const item = await findItem(ownerId, id);
  if (!item) return undefined;
  const events = Array.isArray(item.events) ? item.events.map(toEvent) : [];
  const first = events[0];
  if (!(first && 'status' in first && first.status === 'queued')) {
    events.unshift({ status: 'queued', at: String(item.createdAt) });
  }
  return events;
}

export interface Transition {
  to: ReportableState;
  at: string;
  message?: string;
  url?: string;
  commitSha?: string;
}

export type TransitionResult =
  | { outcome: 'moved'; deployment: Deployment }
  | { outcome: 'refused'; current: DeploymentState }
  | { outcome: 'missing' };

/**
 * Moves a deployment to `to` in one conditional UpdateItem: the condition is that its status is one
 * of `to`'s predecessors, so two racing reports cannot both win. The event joins the history and
 * the list keys follow the status in the same write. On a failed condition the item as it was says
 * why: gone, or in a status that does not lead to `to`.
 */
export async function applyTransition(
  ownerId: string,
  deployment: Pick<Deployment, 'id' | 'projectId' | 'branch'>,
  change: Transition,
): Promise<TransitionResult> {
  const { to, at, message, url, commitSha } = change;
  const keys = listKeys(ownerId, deployment.projectId, deployment.branch, to);
  const event = {
    status: to,
    at,
    ...(message === undefined ? {} : { message }),
    ...(url === undefined ? {} : { url }),
    ...(commitSha === undefined ? {} : { commitSha }),
  };
  const set: Record<string, unknown> = {
    status: to,
    updatedAt: at,
    [ENTERED_AT[to]]: at,
    // All six: those with the status change; the branch ones are rewritten unchanged (no index
    // write), which also completes an item written before the indexes.
    ...keys,
    ...(to === 'building' ? { activeStatus: to } : {}),
    ...(to === 'error' && message !== undefined ? { errorMessage: message } : {}),
    ...(url === undefined ? {} : { url }),
    ...(commitSha === undefined ? {} : { commitSha }),
  };
  const names: Record<string, string> = { '#events': 'events' };
  const values: Record<string, unknown> = { ':event': [event], ':none': [] };
  const assignments = Object.entries(set).map(([attribute, value], index) => {
    names[`#a${index}`] = attribute;
    values[`:a${index}`] = value;
    return `#a${index} = :a${index}`;
  });
  assignments.push('#events = list_append(if_not_exists(#events, :none), :event)');
  const from = predecessorsOf(to);
  from.forEach((state, index) => {
    values[`:from${index}`] = state;
  });
  names['#status'] = 'status';
  // Leaving `queued` or `building` for a terminal state takes it off the local builder's work list.
  if (to !== 'building') names['#active'] = 'activeStatus';
  const update = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id: deployment.id },
        UpdateExpression: `SET ${assignments.join(', ')}${to === 'building' ? '' : ' REMOVE #active'}`,
        ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (!update.failed) {
    return { outcome: 'moved', deployment: toDeployment(update.result.Attributes ?? {}) };
  }
  return update.old ? { outcome: 'refused', current: statusOf(update.old.status) } : { outcome: 'missing' };
}

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

/**
 * Every unfinished deployment in one state, oldest first, of every owner (or of one: tests share a
 * store): the local builder's work list, read from the sparse `unfinished` index. Not a request path.
 */
export async function listUnfinished(
  status: 'queued' | 'building',
  ownerId?: string,
): Promise<(Deployment & { ownerId: string })[]> {
  const found: (Deployment & { ownerId: string })[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: table(),
        IndexName: indexes.deployments.unfinished.name,
        KeyConditionExpression: '#active = :status',
        ExpressionAttributeNames: { '#active': indexes.deployments.unfinished.partitionKey },
        ...(ownerId === undefined ? {} : { FilterExpression: 'ownerId = :owner' }),
        ExpressionAttributeValues: {
          ':status': status,
          ...(ownerId === undefined ? {} : { ':owner': ownerId }),
        },
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    found.push(...Items.map((item) => ({ ...toDeployment(item), ownerId: String(item.ownerId) })));
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}

/** How many deployments one purge pass reads, and deletes at once. */
const PURGE_PAGE = 25;

/**
 * Deletes a project's deployments (their histories are inside them), a page at a time, until none is
 * left or `until` has passed; whether none is left. Idempotent: the project's DELETE runs it within
 * its request, and the purge consumer of the project's removal again in the background, so a project
 * with many deployments neither holds its request nor keeps any.
 */
export async function purgeProjectDeployments(projectId: string, until: number): Promise<boolean> {
  for (;;) {
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: table(),
        IndexName: indexes.deployments.byProject.name,
        KeyConditionExpression: '#project = :projectId',
        ExpressionAttributeNames: { '#project': indexes.deployments.byProject.partitionKey },
        ExpressionAttributeValues: { ':projectId': projectId },
        ProjectionExpression: 'ownerId, id',
        Limit: PURGE_PAGE,
      }),
    );
    if (Items.length === 0) return true;
    await Promise.all(
      Items.map((item) =>
        db.send(new DeleteCommand({ TableName: table(), Key: { ownerId: item.ownerId, id: item.id } })),
      ),
    );
    if (clock.now() >= until) return false;
  }
}
