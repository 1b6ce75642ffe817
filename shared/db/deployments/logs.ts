import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { purgePartition } from '#shared/db/partition-purge.ts';
import { tableName } from '#shared/db/tables.ts';
import { LOG_RETENTION_DAYS, LOG_STREAMS, type LogStream } from '#shared/model/deployments/logs.ts';
import type { DeploymentState } from '#shared/model/deployments/states.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';

// A deployment's build log (shared/db/tables.ts, `deploymentLogs`): one head item that counts the
// lines and bytes, and one item per append holding its lines.
//
// An append is ONE transaction of three parts: the deployment is still queued or building (a
// condition check on its item), the head moves from the count this append read to that count plus
// its lines (a condition on the count), and the append's item is put. So:
// - numbers never have gaps and are never given twice: two appends that read the same count cannot
//   both move the head from it; the loser reads the head again and takes the next range;
// - an append's item exists exactly when the head counts it: no range is reserved by a write that
//   could fail before its lines are stored, so nothing is lost and nothing is half-written;
// - appends commit in the order of their numbers (each needs the one before it committed), so a
//   consistent read that sees line n sees every line before it: a follower that has read up to n
//   never misses one that lands later below it.
// The cost: a race is tried again (reads and a transaction), where a counter that hands out ranges
// first would not; builds append from one process, so races are rare, and the limits stay exact.
// (The alternative, an UpdateItem that reserves a range and a write of the lines after it, leaves a
// gap for good when the second write fails, and lets a later range land before an earlier one.)
// In AWS a status report that writes the deployment item while an append's transaction checks it is
// refused with TransactionConflictException; shared/db/conditional.ts makes such a write again.

const table = (): string => tableName('deploymentLogs');

const HEAD = 'head';
const LINE_PREFIX = 'line#';
const SEQ_DIGITS = 9;
const lineKey = (seq: number): string => `${LINE_PREFIX}${String(seq).padStart(SEQ_DIGITS, '0')}`;

export interface StoredLine {
  seq: number;
  at: string;
  stream: LogStream;
  text: string;
}

export interface LogHead {
  count: number;
  bytes: number;
}

/** The head, read consistently: what the next append continues from. */
export async function readLogHead(deploymentId: string): Promise<LogHead> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: { deploymentId, sk: HEAD }, ConsistentRead: true }),
  );
  return { count: Number(Item?.count ?? 0), bytes: Number(Item?.bytes ?? 0) };
}

export type AppendResult =
  | { outcome: 'appended'; firstSeq: number; lastSeq: number }
  /**
   * Another append moved the head since it was read, or DynamoDB cancelled the transaction for one
   * in progress on the same items (TransactionConflict; DynamoDB Local never does): read it again
   * and retry.
   */
  | { outcome: 'raced' }
  /** The deployment is no longer queued or building (or is gone). */
  | { outcome: 'closed' };

/** What one append writes, after the head it was computed from. */
export interface PendingAppend {
  ownerId: string;
  deploymentId: string;
  head: LogHead;
  lines: readonly Omit<StoredLine, 'seq'>[];
  bytes: number;
  /** The states the deployment must be in for the append to land. */
  open: readonly DeploymentState[];
}

const reasonsOf = (error: unknown): string[] | undefined =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None')
    : undefined;

/**
 * Stores one append's lines after `head`, in one transaction (see above). The SDK's retry of a
 * transaction whose answer was lost reuses its ClientRequestToken, so DynamoDB answers it as done
 * instead of failing its condition against its own write. A retry the store judges afresh (no token,
 * or past the token's ten minutes) fails the count against its own write: the item at its range then
 * holds this append's id, and the append is done, not made again after it.
 */
export async function appendLines(pending: PendingAppend): Promise<AppendResult> {
  const { ownerId, deploymentId, head, lines, bytes, open } = pending;
  const firstSeq = head.count + 1;
  const lastSeq = head.count + lines.length;
  const expiresAt = nowSeconds() + LOG_RETENTION_DAYS * 24 * 60 * 60;
  const appendId = randomUUID();
  const input = {
    TransactItems: [
      {
        ConditionCheck: {
          TableName: tableName('deployments'),
          Key: { ownerId, id: deploymentId },
          ConditionExpression: `#status IN (${open.map((_, index) => `:open${index}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: Object.fromEntries(open.map((state, index) => [`:open${index}`, state])),
        },
      },
      {
        Update: {
          TableName: table(),
          Key: { deploymentId, sk: HEAD },
          UpdateExpression: 'SET #count = :count, #bytes = :bytes, expiresAt = :expiresAt',
          ConditionExpression:
            head.count === 0 ? 'attribute_not_exists(#count) OR #count = :read' : '#count = :read',
          ExpressionAttributeNames: { '#count': 'count', '#bytes': 'bytes' },
          ExpressionAttributeValues: {
            ':count': lastSeq,
            ':bytes': head.bytes + bytes,
            ':read': head.count,
            ':expiresAt': expiresAt,
          },
        },
      },
      {
        Put: {
          TableName: table(),
          Item: { deploymentId, sk: lineKey(lastSeq), firstSeq, lastSeq, lines, expiresAt, appendId },
        },
      },
    ],
  };
  try {
    await db.send(new TransactWriteCommand(input));
    return { outcome: 'appended', firstSeq, lastSeq };
  } catch (error) {
    const reasons = reasonsOf(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') return { outcome: 'closed' };
    if (reasons?.[1] === 'ConditionalCheckFailed' && (await storedBy(deploymentId, lastSeq, appendId))) {
      return { outcome: 'appended', firstSeq, lastSeq };
    }
    if (reasons?.[1] === 'ConditionalCheckFailed' || reasons?.includes('TransactionConflict')) {
      return { outcome: 'raced' };
    }
    throw error;
  }
}

/** Whether the append item ending at `lastSeq` is the one of this append (read consistently). */
async function storedBy(deploymentId: string, lastSeq: number, appendId: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: table(),
      Key: { deploymentId, sk: lineKey(lastSeq) },
      ProjectionExpression: 'appendId',
      ConsistentRead: true,
    }),
  );
  return Item?.appendId === appendId;
}

const isStream = (value: unknown): value is LogStream => (LOG_STREAMS as readonly unknown[]).includes(value);

function linesOf(item: Record<string, unknown>): StoredLine[] {
  const firstSeq = Number(item.firstSeq);
  const lines = Array.isArray(item.lines) ? (item.lines as Record<string, unknown>[]) : [];
  return lines.map((line, index) => ({
    seq: firstSeq + index,
    at: String(line.at),
    stream: isStream(line.stream) ? line.stream : 'stdout',
    text: String(line.text),
  }));
}

/** Appends read per Query: each holds at least one line, and reading few keeps a small page cheap. */
const ITEMS_PER_QUERY = 10;

/**
 * Up to `limit` lines after `after` (exclusive), oldest first, read consistently (a follower must see
 * every committed line; see above), and whether more are stored after them.
 */
export async function readLines(
  deploymentId: string,
  after: number,
  limit: number,
): Promise<{ lines: StoredLine[]; more: boolean }> {
  const found: StoredLine[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'deploymentId = :deployment AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':deployment': deploymentId,
          ':from': lineKey(after + 1),
          ':to': lineKey(10 ** SEQ_DIGITS - 1),
        },
        ConsistentRead: true,
        Limit: ITEMS_PER_QUERY,
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of Items) found.push(...linesOf(item).filter((line) => line.seq > after));
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined && found.length <= limit);
  // The loop stops early only once it has found more than the page: then more are stored.
  return { lines: found.slice(0, limit), more: found.length > limit };
}

/**
 * Deletes a deployment's log (its head and every append's item), a page at a time, until none is
 * left or `until` has passed; whether none is left. Called before the deployment itself is deleted,
 * so that a purge cut short leaves the deployment, and with it the way back to its log, for the
 * next pass. (What a purge never reaches expires with the table's TTL.)
 */
export const purgeLog = (deploymentId: string, until: number): Promise<boolean> =>
  purgePartition(table(), 'deploymentId', deploymentId, until);
