import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import type { TeamOpenCheck } from '#shared/db/teams/teams.ts';
import { PRODUCTION_REASONS } from '#shared/model/production.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { Project as ProjectSchema } from '#shared/schemas/resources.ts';
import type { ItemRead } from './batch-get.ts';
import { batchGet } from './batch-get.ts';
import { db } from './client.ts';
import { conditionally, putNew, transactWrite, transactWriteConditions } from './conditional.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { forEachPage, type Page, queryPage } from './pages.ts';
import { tableName } from './tables.ts';
import { updateExpression } from './update-expression.ts';

// Projects live under their owner (partition `ownerId`, sort `id`): a get is always owner-scoped,
// so another user's project is simply not found, and a list is one Query in id (= time) order.

export const table = (): string => tableName('projects');

/**
 * The copy of the project's variables' head its item carries (version, count, revision), which
 * shared/db/environment/variables.ts writes with every change of the head; never shown.
 */
export const VARIABLES_HEAD = 'variablesHead';

/** What a new project's item carries there: no variables yet, at revision 0. */
export const NO_VARIABLES = { count: 0, revision: 0 } as const;

/** A project as the API shows it: the response schema's type, so no field goes undocumented. */
export type Project = z.output<typeof ProjectSchema>;

export const toProject = (item: Record<string, unknown>): Project => ({
  id: String(item.id),
  name: String(item.name),
  repository: typeof item.repository === 'string' ? item.repository : null,
  productionBranch: String(item.productionBranch),
  production: toPointer(item.production),
  // Absent on projects that never had it turned off.
  autoPromotion: item.autoPromotion !== false,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

/** The stored pointer as the API shows it (the rollback chain it also holds stays inside). */
function toPointer(stored: unknown): Project['production'] {
  if (typeof stored !== 'object' || stored === null) return null;
  const pointer = stored as Record<string, unknown>;
  return {
    deploymentId: String(pointer.deploymentId),
    url: typeof pointer.url === 'string' ? pointer.url : null,
    promotedAt: String(pointer.promotedAt),
    reason: PRODUCTION_REASONS.find((reason) => reason === pointer.reason) ?? 'auto',
  };
}

/**
 * Puts a new project: no production deployment yet, automatic promotion on (both implied by
 * absence), no variables. In a shared team, in one transaction with `teamOpen` (its token makes the
 * SDK's retry of a lost answer a no-op): false when that check refused it.
 */
export async function putProject(
  ownerId: string,
  project: Project,
  teamOpen?: TeamOpenCheck,
): Promise<boolean> {
  const { production: _none, autoPromotion: _on, ...stored } = project;
  const item = { ownerId, ...stored, [VARIABLES_HEAD]: NO_VARIABLES };
  if (!teamOpen) {
    await putNew((input) => db.send(new PutCommand(input)), { TableName: table(), Item: item }, 'id');
    return true;
  }
  const refused = await transactWriteConditions(
    (attempt) => ({
      ClientRequestToken: `${project.id}-${attempt}`,
      TransactItems: [
        { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(id)' } },
        teamOpen,
      ],
    }),
    [1],
  );
  return refused === undefined;
}

/**
 * The stored item of one of the owner's projects (shared/db/production.ts reads its pointer too);
 * `consistent` when what it carries must include every write answered before (its variables' head).
 */
export async function findProjectItem(
  ownerId: string,
  id: string,
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand(projectRead(ownerId, id, options)));
  return Item;
}

/** The read of one of the owner's projects, to send alone or beside a membership (with-membership.ts). */
export const projectRead = (
  ownerId: string,
  id: string,
  options: { consistent?: boolean } = {},
): ItemRead => ({
  TableName: table(),
  Key: { ownerId, id },
  ...(options.consistent ? { ConsistentRead: true } : {}),
});

export async function findProject(ownerId: string, id: string): Promise<Project | undefined> {
  const item = await findProjectItem(ownerId, id);
  return item ? toProject(item) : undefined;
}

export async function listProjects(
  ownerId: string,
  page: PageRequest,
  among?: readonly string[],
): Promise<Page<Project>> {
  if (among !== undefined) return listProjectsAmong(ownerId, among, page);
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

/** What a PATCH changes: a field given a value is set, `repository: null` is removed. */
export interface ProjectChanges {
  name?: string;
  repository?: string | null;
  productionBranch?: string;
  updatedAt: string;
}

/**
 * Changes one of the owner's projects in one conditional write, and returns it as it now is;
 * undefined when the owner has no such project (never created, or deleted meanwhile: a PATCH that
 * races a DELETE cannot bring the project back).
 */
export async function updateProject(
  ownerId: string,
  id: string,
  changes: ProjectChanges,
): Promise<Project | undefined> {
  const { repository, ...rest } = changes;
  const updated = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id },
        ...updateExpression({
          set: { ...rest, ...(repository === null ? {} : { repository }) },
          remove: repository === null ? ['repository'] : [],
        }),
        ConditionExpression: 'attribute_exists(id)',
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated.failed ? undefined : toProject(updated.result.Attributes ?? {});
}

/**
 * Deletes one of the owner's projects; false when there was none to delete. A transaction of one
 * item, so that the audit log's event of the deletion is committed with it (shared/db/audit/stamp.ts).
 */
export function deleteProject(ownerId: string, id: string): Promise<boolean> {
  return transactWrite(() => ({
    TransactItems: [
      { Delete: { TableName: table(), Key: { ownerId, id }, ConditionExpression: 'attribute_exists(id)' } },
    ],
  }));
}

/** How many projects an owner has: what deleting a team that still has some answers with. */
export async function countProjects(ownerId: string): Promise<number> {
  let count = 0;
  await forEachPage(
    {
      TableName: table(),
      KeyConditionExpression: 'ownerId = :ownerId',
      ExpressionAttributeValues: { ':ownerId': ownerId },
      Select: 'COUNT',
      ConsistentRead: true,
    },
    (page) => {
      count += page.count;
    },
  );
  return count;
}

/**
 * A page of those of the given projects (at most 100: a team token's) that the owner has, newest
 * first: one BatchGetItem of them all, paged here. The cursor is the last id shown, as for a Query.
 */
async function listProjectsAmong(
  ownerId: string,
  ids: readonly string[],
  page: PageRequest,
): Promise<Page<Project>> {
  const scope = `projects:${ownerId}:${[...ids].sort().join(',')}`;
  const below = page.cursor === undefined ? undefined : await decodeCursor(scope, page.cursor);
  const found = await batchGet(
    table(),
    ids.map((id) => ({ ownerId, id })),
  );
  const newestFirst = found
    .map(toProject)
    .filter((project) => below === undefined || project.id < below)
    .sort((a, b) => (a.id < b.id ? 1 : -1));
  const items = newestFirst.slice(0, page.limit);
  const last = items.at(-1);
  const more = newestFirst.length > page.limit && last !== undefined;
  return { items, nextCursor: more ? await encodeCursor(scope, last.id) : null };
}
