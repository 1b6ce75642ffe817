import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { transactWrite } from '#shared/db/conditional.ts';
import { table as projectsTable, VARIABLES_HEAD } from '#shared/db/projects.ts';
import {
  type EnvironmentChange,
  HEAD_KEY,
  type Head,
  itemOf,
  type StoredVariable,
  table,
  variablePrefix,
} from './variables.ts';

// Writing a project's variables (environment-variables.ts says how the set is versioned): a change
// of the current version in one transaction with its head, a new version staged and then switched to
// by one conditional write of the head, and an old version dropped after.

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
