import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { forEachPage, type Page, queryPage } from '#shared/db/pages.ts';
import { NO_VARIABLES, table as projectsTable, VARIABLES_HEAD } from '#shared/db/projects.ts';
import { ENVIRONMENT_HEAD_KEY, tableName } from '#shared/db/tables.ts';
import type { EnvironmentTarget, VariableType } from '#shared/model/environment-variables.ts';
import type { PageRequest } from '#shared/schemas/common.ts';

// A project's environment variables (shared/db/tables.ts, `environment`). The set is versioned: its
// variables live under `var#<version>#`, and the head item (`set`) names the current version. Every
// change is a transaction conditional on the head's revision, so changes to one project are serial
// (the overlap and count checks made on what was read still hold when the write lands). A replace
// writes the new set under a new version, invisible until one conditional write of the head switches
// to it, then deletes the old one: atomic for any size up to the limit, where a transaction of the
// old and new items would exceed DynamoDB's 100 actions.
//
// The project item carries a copy of the head (`variablesHead`: version, count, revision), written in
// the same transaction as every change of the head, so that a deployment's create reads the project
// and its variables' head in one consistent GetItem. A project item written before the copy existed
// has none: its head is read apart, and copied onto it once (`copyHeadToProject`).

export const table = (): string => tableName('environment');

export const HEAD_KEY = ENVIRONMENT_HEAD_KEY;
export const variablePrefix = (version: string): string => `var#${version}#`;

export interface Head {
  version: string;
  count: number;
  revision: number;
}

/** A variable as stored; `sealed` (its value, envelope-encrypted) only when asked for. */
export interface StoredVariable {
  id: string;
  key: string;
  targets: EnvironmentTarget[];
  type: VariableType;
  sealed?: string;
  createdAt: string;
  updatedAt: string;
}

/** What a change did, for the head's `lastChange` and from there the `project.env.updated` event. */
export interface EnvironmentChange {
  change: 'created' | 'updated' | 'deleted' | 'replaced';
  variables: { key: string; targets: EnvironmentTarget[]; type: VariableType }[];
  at: string;
}

const toVariable = (item: Record<string, unknown>): StoredVariable => ({
  id: String(item.id),
  key: String(item.key),
  targets: (Array.isArray(item.targets) ? item.targets : []) as EnvironmentTarget[],
  type: item.type === 'secret' ? 'secret' : 'plain',
  ...(typeof item.sealed === 'string' ? { sealed: item.sealed } : {}),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const itemOf = (projectId: string, version: string, variable: StoredVariable) => ({
  projectId,
  sk: `${variablePrefix(version)}${variable.id}`,
  ...variable,
});

const headOf = (item: Record<string, unknown>): Head => ({
  version: String(item.version),
  count: Number(item.count ?? 0),
  revision: Number(item.revision ?? 0),
});

/** The head, read consistently: what every change and every snapshot starts from. */
export async function readHead(projectId: string): Promise<Head | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: { projectId, sk: HEAD_KEY }, ConsistentRead: true }),
  );
  return Item ? headOf(Item) : undefined;
}

/**
 * The head as a project item carries it: null when the project has no variables (never had, or a
 * head without a version), undefined when the item predates the copy (read the head instead).
 */
export function headOnProject(projectItem: Record<string, unknown>): Head | null | undefined {
  const copy = projectItem[VARIABLES_HEAD];
  if (typeof copy !== 'object' || copy === null) return undefined;
  const fields = copy as Record<string, unknown>;
  return typeof fields.version === 'string' ? headOf(fields) : null;
}

/**
 * Puts a head read apart onto a project item that has no copy yet (written before the copy
 * existed), once: a copy there already is as new or newer, written with a change of the head.
 */
export async function copyHeadToProject(
  ownerId: string,
  projectId: string,
  head: Head | undefined,
): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: projectsTable(),
        Key: { ownerId, id: projectId },
        UpdateExpression: 'SET #head = :head',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(#head)',
        ExpressionAttributeNames: { '#head': VARIABLES_HEAD },
        ExpressionAttributeValues: { ':head': head ?? NO_VARIABLES },
      }),
    ),
  );
}

/** A page of one version of the set, newest first; the cursor is bound to the project and version. */
export async function listVariables(
  projectId: string,
  version: string,
  page: PageRequest,
): Promise<Page<StoredVariable>> {
  const result = await queryPage(
    {
      scope: `environment:${projectId}:${version}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'projectId = :project AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':project': projectId, ':prefix': variablePrefix(version) },
        ConsistentRead: true,
      },
      resume: { keyOf: (id) => ({ projectId, sk: `${variablePrefix(version)}${id}` }) },
    },
    page,
  );
  return { items: result.items.map(toVariable), nextCursor: result.nextCursor };
}

/** One variable of a version, its sealed value included (read consistently). */
export async function findVariable(
  projectId: string,
  version: string,
  id: string,
): Promise<StoredVariable | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: table(),
      Key: { projectId, sk: `${variablePrefix(version)}${id}` },
      ConsistentRead: true,
    }),
  );
  return Item ? toVariable(Item) : undefined;
}

/** Every variable of one version, newest first, with or without the sealed values. */
export async function allVariables(
  projectId: string,
  version: string,
  options: { sealed: boolean },
): Promise<StoredVariable[]> {
  const found: StoredVariable[] = [];
  await forEachPage(
    {
      TableName: table(),
      KeyConditionExpression: 'projectId = :project AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':project': projectId, ':prefix': variablePrefix(version) },
      ...(options.sealed
        ? {}
        : {
            ProjectionExpression: 'id, #key, targets, #type, createdAt, updatedAt',
            ExpressionAttributeNames: { '#key': 'key', '#type': 'type' },
          }),
      ConsistentRead: true,
      ScanIndexForward: false,
    },
    (page) => found.push(...page.items.map(toVariable)),
  );
  return found;
}
