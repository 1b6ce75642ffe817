import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import type { ItemRead } from '#shared/db/batch-get.ts';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { DEPLOYMENT_STATES, type DeploymentState } from '#shared/model/deployments/states.ts';
import type {
  DeploymentEvent as DeploymentEventSchema,
  Deployment as DeploymentSchema,
} from '#shared/schemas/resources.ts';

// Deployments live under their owner (owner-scoped get by id; the owner's list), one item each with
// its status history inside. This module reads them by id and turns items into what the API shows;
// deployment-writes.ts creates and moves them, deployment-lists.ts pages through them,
// deployment-maintenance.ts holds what only the local builder and the backfill use.

/** The deployments table's name (resolved when used: shared/db/tables.ts). */
export const table = (): string => tableName('deployments');

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

/** A stored status, read defensively: anything unknown shows as `error`. */
export const statusOf = (value: unknown): DeploymentState =>
  DEPLOYMENT_STATES.find((state) => state === value) ?? 'error';

export const toDeployment = (item: Record<string, unknown>): Deployment => {
  const deployment: Deployment = {
    id: String(item.id),
    projectId: String(item.projectId),
    branch: String(item.branch),
    status: statusOf(item.status),
    // Items from before targets were stored show `preview`: their branch cannot say, since the
    // project's production branch may have changed since. Nothing about them moves production.
    target: item.target === 'production' ? 'production' : 'preview',
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  for (const field of OPTIONAL_FIELDS) {
    if (typeof item[field] === 'string') deployment[field] = item[field];
  }
  return deployment;
};

const toEvent = (entry: Record<string, unknown>): DeploymentEvent =>
  // Reads of the build environment are entries too (shared/db/deployments/build-env-reads.ts).
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

/** The read of one of the owner's deployments, to send alone or beside a membership (with-membership.ts). */
export const deploymentRead = (ownerId: string, id: string, consistent = false): ItemRead => ({
  TableName: table(),
  Key: { ownerId, id },
  ...(consistent ? { ConsistentRead: true } : {}),
});

async function findItem(
  ownerId: string,
  id: string,
  consistent = false,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand(deploymentRead(ownerId, id, consistent)));
  return Item;
}

/**
 * One of the owner's deployments, or undefined when it is not (or no longer) there. `consistent` for
 * those who watch it change (a wait, a followed log): a change is then seen on the first read after
 * it was written, never a read later.
 */
export async function findDeployment(
  ownerId: string,
  id: string,
  options: { consistent?: boolean } = {},
): Promise<Deployment | undefined> {
  const item = await findItem(ownerId, id, options.consistent);
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
