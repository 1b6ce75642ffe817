import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import type { PageRequest } from '../schemas/common.ts';
import type { Project as ProjectSchema } from '../schemas/resources.ts';
import { db } from './client.ts';
import { putNew } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { tableName } from './tables.ts';

// Projects live under their owner (partition `ownerId`, sort `id`): a get is always owner-scoped,
// so another user's project is simply not found, and a list is one Query in id (= time) order.

const table = (): string => tableName('projects');

/** A project as the API shows it: the response schema's type, so no field goes undocumented. */
export type Project = z.output<typeof ProjectSchema>;

export const toProject = (item: Record<string, unknown>): Project => ({
  id: String(item.id),
  name: String(item.name),
  repository: typeof item.repository === 'string' ? item.repository : null,
  productionBranch: String(item.productionBranch),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export async function putProject(ownerId: string, project: Project): Promise<void> {
  await putNew(
    (input) => db.send(new PutCommand(input)),
    { TableName: table(), Item: { ownerId, ...project } },
    'id',
  );
}

export async function findProject(ownerId: string, id: string): Promise<Project | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { ownerId, id } }));
  return Item ? toProject(Item) : undefined;
}

export async function listProjects(ownerId: string, page: PageRequest): Promise<Page<Project>> {
  const result = await queryPage(
    {
      scope: `projects:${ownerId}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'ownerId = :ownerId',
        ExpressionAttributeValues: { ':ownerId': ownerId },
      },
      resume: { keyOf: (id) => ({ ownerId, id }) },
    },
    page,
  );
  return { items: result.items.map(toProject), nextCursor: result.nextCursor };
}
