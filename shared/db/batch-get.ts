import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';

// Reading many items of one table by key: BatchGetItem, 100 keys a call, and again for what DynamoDB
// left unprocessed. It leaves keys unprocessed when the table's capacity or the call's 16 MB is
// exceeded, and answers at once: asked again at once, it would likely leave them again, so each
// retry waits twice as long as the one before (AWS's advice), within a bound that fails the request
// rather than spin.

/** How many keys one BatchGetItem may ask for. */
export const BATCH_GET_MAX = 100;
const ATTEMPTS = 5;
const FIRST_WAIT_MS = 20;

/**
 * Before a batch call's `attempt` (1 is the first; BatchWriteItem leaves items unprocessed alike):
 * nothing, then a wait twice the one before; past the last attempt, the error that fails the request.
 */
export async function beforeAttempt(attempt: number, what: string): Promise<void> {
  if (attempt > ATTEMPTS) throw new Error(`A batch call left keys of ${what} unprocessed`);
  if (attempt > 1) await sleep(FIRST_WAIT_MS * 2 ** (attempt - 2));
}

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/**
 * The read of one item, as an entity module hands it over (projects.ts, teams.ts...) to be sent
 * alone or beside the caller's membership (with-membership.ts). Declared here, below both, so that
 * no entity module imports the module that imports it.
 */
export interface ItemRead {
  TableName: string;
  Key: Record<string, string>;
  ConsistentRead?: boolean;
}

/**
 * The items of `keys` that exist (in no particular order): only the attributes `projection` names
 * when given (plain names, none reserved), read consistently when asked.
 */
export async function batchGet(
  tableName: string,
  keys: readonly Key[],
  options: { projection?: string; consistent?: boolean } = {},
): Promise<Item[]> {
  const found: Item[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX) {
    let pending: Key[] | undefined = keys.slice(start, start + BATCH_GET_MAX);
    for (let attempt = 1; pending !== undefined && pending.length > 0; attempt++) {
      await beforeAttempt(attempt, tableName);
      const answer: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ...(options.projection && { ProjectionExpression: options.projection }),
              ...(options.consistent && { ConsistentRead: true }),
            },
          },
        }),
      );
      found.push(...(answer.Responses?.[tableName] ?? []));
      pending = answer.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
}
