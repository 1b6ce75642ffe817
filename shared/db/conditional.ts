import { isDeepStrictEqual } from 'node:util';
import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  type PutCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db } from './client.ts';

/**
 * The wait before `attempt` + 1 of something that lost a race: growing with the attempt, and random
 * (half to one and a half times `stepMs` per attempt) so that the racers do not meet again.
 */
export const afterLostRace = (attempt: number, stepMs = 10): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, stepMs * attempt * (0.5 + Math.random())));

/** Attempts at a write refused because a transaction on its item was in progress. */
const CONFLICTED_WRITE_ATTEMPTS = 4;

/**
 * Runs a conditional write. A failed condition returns `{ failed: true, old }` with the item as it
 * was (when the request asked for ALL_OLD on failure); every other error is rethrown.
 *
 * A write refused with TransactionConflictException is made again, briefly: a transaction involving
 * the same item was in progress (a log append checks its deployment's status in one,
 * shared/db/deployments/logs.ts), and the write did not happen. The SDK does not retry that error by
 * itself; DynamoDB Local never sends it.
 */
export async function conditionally<T>(
  write: () => Promise<T>,
): Promise<{ failed: false; result: T } | { failed: true; old: Record<string, unknown> | undefined }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { failed: false, result: await write() };
    } catch (error) {
      if (error instanceof TransactionConflictException && attempt < CONFLICTED_WRITE_ATTEMPTS) {
        await afterLostRace(attempt);
        continue;
      }
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return { failed: true, old: error.Item ? unmarshall(error.Item) : undefined };
    }
  }
}

/** The item as its writer gave it: without the audit stamp the client added (audit-stamp.ts). */
function withoutStamp(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (item === undefined) return undefined;
  const { audit: _stamp, ...given } = item;
  return given;
}

/**
 * Puts a new item that must not exist yet, and survives the SDK's retry of a put whose response was
 * lost: the retry finds the item there, and if it is exactly the item this call wrote (its fresh id
 * and timestamps make it unique), the write did happen and the put succeeded. Anything else there
 * is a real conflict.
 */
export async function putNew(
  send: (input: PutCommandInput) => Promise<unknown>,
  input: PutCommandInput & { Item: Record<string, unknown> },
  keyAttribute: string,
): Promise<void> {
  const put = await conditionally(() =>
    send({
      ...input,
      ConditionExpression: `attribute_not_exists(${keyAttribute})`,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  if (put.failed && !isDeepStrictEqual(withoutStamp(put.old), input.Item)) {
    throw new Error(`An item with the same key as a new one already exists in ${input.TableName}`);
  }
}

/** Transactions cancelled for racing another on the same item are tried this often, briefly. */
const TRANSACTION_ATTEMPTS = 4;

const cancellationReasons = (error: unknown): string[] | undefined =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None')
    : undefined;

/**
 * Runs a transaction whose first item carries the condition that decides it: false when that
 * condition failed. See `transactWriteReasons` for the retries.
 */
export async function transactWrite(input: (attempt: number) => TransactWriteCommandInput): Promise<boolean> {
  const outcome = await transactWriteReasons(input);
  if (outcome.done) return true;
  if (outcome.reasons[0] === 'ConditionalCheckFailed') return false;
  throw outcome.error;
}

/**
 * Runs a transaction; when conditions cancel it, says which: the cancellation code of each item, in
 * order (`None` for an item that was fine). DynamoDB cancels transactions that race on the same
 * item (DynamoDB Local never does); those are tried again after a short random wait, and on the
 * retry the winner's write decides. `input` gets the attempt number (1, 2, …), for a
 * ClientRequestToken per attempt.
 */
export async function transactWriteReasons(
  input: (attempt: number) => TransactWriteCommandInput,
): Promise<{ done: true } | { done: false; reasons: string[]; error: unknown }> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand(input(attempt)));
      return { done: true };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons === undefined) throw error;
      const retried = !reasons.includes('ConditionalCheckFailed') && reasons.includes('TransactionConflict');
      if (!retried || attempt >= TRANSACTION_ATTEMPTS) return { done: false, reasons, error };
      await afterLostRace(attempt, 20);
    }
  }
}

/**
 * Runs a transaction whose items at the `decisive` positions carry conditions that decide it: the
 * position of the first of them that failed, or undefined when it was applied.
 */
export async function transactWriteConditions(
  input: (attempt: number) => TransactWriteCommandInput,
  decisive: readonly number[],
): Promise<number | undefined> {
  const outcome = await transactWriteReasons(input);
  if (outcome.done) return undefined;
  const failed = outcome.reasons.indexOf('ConditionalCheckFailed');
  if (failed >= 0 && decisive.includes(failed)) return failed;
  throw outcome.error;
}
