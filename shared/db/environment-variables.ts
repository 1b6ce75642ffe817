import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EnvironmentTarget, VariableType } from '#shared/model/environment-variables.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { db } from './client.ts';
import { conditionally, transactWrite } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { NO_VARIABLES, table as projectsTable, VARIABLES_HEAD } from './projects.ts';
import { ENVIRONMENT_HEAD_KEY, tableName } from './tables.ts';

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

const table = (): string => tableName('environment');

export const HEAD_KEY = ENVIRONMENT_HEAD_KEY;
const variablePrefix = (version: string): string => `var#${version}#`;

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

const itemOf = (projectId: string, version: string, variable: StoredVariable) => ({
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
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
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
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    found.push(...Items.map(toVariable));
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}

export interface NextHead {
  version: string;
  count: number;
  change: EnvironmentChange;
}

/**
 * The head's new state, written only if it still is as read (`expected`; none: there was no head),
 * and its copy on the project item, which must still exist: the two parts of every head write.
 */
function headWrite(projectId: string, ownerId: string, expected: Head | undefined, next: NextHead) {
  const revision = (expected?.revision ?? 0) + 1;
  return [
    { Update: headUpdate(projectId, ownerId, expected, next, revision) },
    {
      Update: {
        TableName: projectsTable(),
        Key: { ownerId, id: projectId },
        UpdateExpression: 'SET #head = :head',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: { '#head': VARIABLES_HEAD },
        ExpressionAttributeValues: { ':head': { version: next.version, count: next.count, revision } },
      },
    },
  ];
}

function headUpdate(
  projectId: string,
  ownerId: string,
  expected: Head | undefined,
  next: NextHead,
  revision: number,
) {
  return {
    TableName: table(),
    Key: { projectId, sk: HEAD_KEY },
    UpdateExpression:
      'SET ownerId = :owner, version = :version, #count = :count, revision = :revision, lastChange = :change',
    ConditionExpression: expected ? 'revision = :expected' : 'attribute_not_exists(sk)',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: {
      ':owner': ownerId,
      ':version': next.version,
      ':count': next.count,
      ':revision': revision,
      ':change': { ...next.change, revision },
      ...(expected ? { ':expected': expected.revision } : {}),
    },
  };
}

export type VariableWrite =
  | { put: StoredVariable & { sealed: string } }
  | { update: StoredVariable & { sealed: string } }
  | { delete: string };

/**
 * What a head write came to: `written`; `moved` when the head is no longer as read (another change
 * got there first, or this one's own write whose answer was lost); `gone` when the project is.
 */
export type HeadWriteOutcome = 'written' | 'moved' | 'gone';

/** Runs a transaction whose first two items are `headWrite`'s. */
async function writeWithHead(
  items: ReturnType<typeof headWrite>,
  more: object[] = [],
): Promise<HeadWriteOutcome> {
  try {
    return (await transactWrite(() => ({ TransactItems: [...items, ...more] }))) ? 'written' : 'moved';
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'gone';
    throw error;
  }
}

/**
 * One change of the current version (`expected`, as read): the head (and its copy on the project)
 * and one variable in one transaction.
 */
export function applyChange(
  projectId: string,
  ownerId: string,
  expected: Head | undefined,
  next: NextHead,
  write: VariableWrite,
): Promise<HeadWriteOutcome> {
  const key = (id: string) => ({ projectId, sk: `${variablePrefix(next.version)}${id}` });
  const item =
    'put' in write
      ? {
          Put: {
            TableName: table(),
            Item: itemOf(projectId, next.version, write.put),
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        }
      : 'update' in write
        ? {
            Put: {
              TableName: table(),
              Item: itemOf(projectId, next.version, write.update),
              ConditionExpression: 'attribute_exists(sk)',
            },
          }
        : {
            Delete: {
              TableName: table(),
              Key: key(write.delete),
              ConditionExpression: 'attribute_exists(sk)',
            },
          };
  return writeWithHead(headWrite(projectId, ownerId, expected, next), [item]);
}

/** Writes a whole new version of the set, invisible until `switchVersion` names it. */
export async function stageVersion(
  projectId: string,
  version: string,
  variables: readonly (StoredVariable & { sealed: string })[],
): Promise<void> {
  if (variables.length === 0) return;
  await db.send(
    new TransactWriteCommand({
      TransactItems: variables.map((variable) => ({
        Put: {
          TableName: table(),
          Item: itemOf(projectId, version, variable),
          ConditionExpression: 'attribute_not_exists(sk)',
        },
      })),
    }),
  );
}

/**
 * Makes a staged version the set, in one conditional write of the head (and its copy). A transaction
 * for the two items, which also makes the SDK's retry of a write whose answer was lost the same
 * write (its ClientRequestToken), answered as done.
 */
export function switchVersion(
  projectId: string,
  ownerId: string,
  expected: Head | undefined,
  next: NextHead,
): Promise<HeadWriteOutcome> {
  return writeWithHead(headWrite(projectId, ownerId, expected, next));
}

/** Deletes the variables of a version no head names any more (a replaced set, or one never switched to). */
export async function dropVersion(projectId: string, version: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.send(
    new TransactWriteCommand({
      TransactItems: ids.map((id) => ({
        Delete: { TableName: table(), Key: { projectId, sk: `${variablePrefix(version)}${id}` } },
      })),
    }),
  );
}
