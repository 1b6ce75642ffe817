import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { DEPLOYMENT_STATES } from '../domain/deployment-states.ts';
import type { PageRequest } from '../schemas/common.ts';
import type { Deployment as DeploymentSchema } from '../schemas/resources.ts';
import { db } from './client.ts';
import { putNew } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { tableName } from './tables.ts';

// Deployments live under their owner (owner-scoped get by id) and are indexed by project
// (`byProject`: newest first). The project's owner is checked before its index is read.

const table = (): string => tableName('deployments');

/** A deployment as the API shows it: the response schema's type, so no field goes undocumented. */
export type Deployment = z.output<typeof DeploymentSchema>;

const toDeployment = (item: Record<string, unknown>): Deployment => ({
  id: String(item.id),
  projectId: String(item.projectId),
  branch: String(item.branch),
  status: DEPLOYMENT_STATES.find((state) => state === item.status) ?? 'error',
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export async function putDeployment(ownerId: string, deployment: Deployment): Promise<void> {
  await putNew(
    (input) => db.send(new PutCommand(input)),
    { TableName: table(), Item: { ownerId, ...deployment } },
    'id',
  );
}

export async function findDeployment(ownerId: string, id: string): Promise<Deployment | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { ownerId, id } }));
  return Item ? toDeployment(Item) : undefined;
}

/** A project's deployments; the caller must already have checked that the project is theirs. */
export async function listDeploymentsOfProject(
  ownerId: string,
  projectId: string,
  page: PageRequest,
): Promise<Page<Deployment>> {
  const result = await queryPage(
    {
      scope: `deployments:${ownerId}:${projectId}`,
      query: {
        TableName: table(),
        IndexName: 'byProject',
        KeyConditionExpression: 'projectId = :projectId',
        ExpressionAttributeValues: { ':projectId': projectId },
      },
      resume: { keyOf: (id) => ({ ownerId, id, projectId }) },
    },
    page,
  );
  return { items: result.items.map(toDeployment), nextCursor: result.nextCursor };
}
