import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type TableKey, tableKeyNamed, tables } from '#shared/db/tables.ts';
import { type AuditItemKind, type AuditStamp, kindOfAction, targetTypeOf } from '#shared/model/audit.ts';
import { table as auditTable, eventItem } from './events.ts';
import { auditedTables, kindOf, projectOfItem, targetIdOf, teamOfItem } from './kinds.ts';
import { type AuditScope, auditScope } from './scope.ts';

// How a change's event can never be missing: it is committed with the change, by DynamoDB, in one of
// two ways, and this client middleware picks which, so no entity module has to remember.
// - The change's item (the one its action names, shared/model/audit.ts) is put or updated in a
//   table with a stream: the write carries the stamp (`audit`: who, from where, which event), and
//   functions/audit/record-audit-events.ts makes the event from the stream record, with what changed
//   (`from` the old image, `to` the new). Nothing after the write can lose it: the record exists
//   once the write does, and the stream hands it over until it is recorded.
// - The change deletes its item (a delete's record cannot say who deleted), or its item lives in a
//   table without a stream (a build log's head): the event is one more item of the change's own
//   transaction, committed or not with it. A lone delete of such an item is a programming error,
//   refused here before it is sent.
// Every other update of an item in those tables removes a stamp left by an earlier change, so a
// stream record carries a stamp exactly when its write was a change (the consumer's filter).

const STAMP = 'audit';
const NAME = '#auditStamp';
const VALUE = ':auditStamp';

type Input = Record<string, unknown>;
type Item = Record<string, unknown>;

/** The audited table a deployed or local table name stands for. */
const auditedTableNamed = (name: unknown): TableKey | undefined => tableKeyNamed(name, auditedTables);

const hasStream = (key: TableKey): boolean => 'stream' in tables[key];

/** Adds `part` to the expression's `keyword` clause, or the clause itself. */
function withClause(expression: string, keyword: 'SET' | 'REMOVE', part: string): string {
  const found = new RegExp(`(^|\\s)${keyword}\\s`, 'i').exec(expression);
  if (!found) return `${expression} ${keyword} ${part}`;
  const at = found.index + found[0].length;
  return `${expression.slice(0, at)}${part}, ${expression.slice(at)}`;
}

/** The stamp as it goes on the item: with the team, where the item is a team's own. */
function stampFor(stamp: AuditStamp, kind: AuditItemKind, item: Item): AuditStamp {
  return stamp.teamId === undefined ? { ...stamp, teamId: teamOfItem(kind, item) ?? '' } : stamp;
}

interface Write {
  table: TableKey;
  kind: AuditItemKind | undefined;
  /** Whether this write is the change the scope's stamp describes. */
  isChange: boolean;
}

function writeOf(
  request: Input,
  keyOrItem: 'Key' | 'Item',
  scope: AuditScope | undefined,
): Write | undefined {
  const table = auditedTableNamed(request.TableName);
  if (table === undefined) return undefined;
  const kind = kindOf((request[keyOrItem] ?? {}) as Item);
  const wanted = scope?.stamp && kindOfAction(scope.stamp.action);
  return { table, kind, isChange: kind !== undefined && kind === wanted };
}

const stampedPut = (put: Input, stamp: AuditStamp, kind: AuditItemKind): Input => ({
  ...put,
  Item: { ...(put.Item as Item), [STAMP]: stampFor(stamp, kind, put.Item as Item) },
});

function stampedUpdate(update: Input, stamp: AuditStamp | undefined, kind: AuditItemKind | undefined): Input {
  const expression = String(update.UpdateExpression ?? '');
  const names = { ...(update.ExpressionAttributeNames as Record<string, string>), [NAME]: STAMP };
  if (stamp === undefined || kind === undefined) {
    return {
      ...update,
      UpdateExpression: withClause(expression, 'REMOVE', NAME),
      ExpressionAttributeNames: names,
    };
  }
  return {
    ...update,
    UpdateExpression: withClause(expression, 'SET', `${NAME} = ${VALUE}`),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: {
      ...(update.ExpressionAttributeValues as Record<string, unknown>),
      [VALUE]: stampFor(stamp, kind, update.Key as Item),
    },
  };
}

/** The event of a change made by a transaction item that cannot carry it (a delete). */
function eventPut(stamp: AuditStamp, kind: AuditItemKind, key: Item): Input {
  const item = eventItem(stamp, {
    outcome: 'success',
    target: { type: targetTypeOf(stamp.action), id: targetIdOf(kind, key) },
    projectId: projectOfItem(kind, key) ?? stamp.projectId,
    teamId: teamOfItem(kind, key),
  });
  return { Put: { TableName: auditTable(), Item: item } };
}

/** One write, stamped as the scope says; `carried` when it made the change's event certain. */
function stampOne(operation: string, request: Input, scope: AuditScope | undefined, inTransaction: boolean) {
  const write = writeOf(request, operation === 'Put' ? 'Item' : 'Key', scope);
  if (!write) return { request, event: undefined };
  const stamp = scope?.stamp;
  if (!write.isChange || !stamp || !write.kind) {
    const unstamped =
      operation === 'Update' && hasStream(write.table)
        ? stampedUpdate(request, undefined, undefined)
        : request;
    return { request: unstamped, event: undefined };
  }
  if (operation === 'Delete' || !hasStream(write.table)) {
    if (!inTransaction) {
      throw new Error(
        `${stamp.action}: a change that deletes its item, or writes one without a stream, is made in a transaction`,
      );
    }
    return { request, event: eventPut(stamp, write.kind, request.Key as Item) };
  }
  const stamped =
    operation === 'Put' ? stampedPut(request, stamp, write.kind) : stampedUpdate(request, stamp, write.kind);
  return { request: stamped, event: undefined, carried: true };
}

/** The call's input as it is sent: stamped, unstamped, or with the change's event added. */
export function stampedInput(operation: string, input: Input, scope: AuditScope | undefined): Input {
  const single: Record<string, string> = { PutItem: 'Put', UpdateItem: 'Update', DeleteItem: 'Delete' };
  const one = single[operation];
  if (one) {
    const { request, carried } = stampOne(one, input, scope, false);
    if (carried && scope) scope.carried = true;
    return request;
  }
  if (operation !== 'TransactWriteItems') return input;
  const events: Input[] = [];
  const items = ((input.TransactItems ?? []) as Input[]).map((entry) => {
    const [kind, request] = Object.entries(entry)[0] ?? [];
    if (kind === undefined || kind === 'ConditionCheck') return entry;
    const stamped = stampOne(kind, request as Input, scope, true);
    if (stamped.event && events.length === 0) events.push(stamped.event);
    if ((stamped.carried || stamped.event) && scope) scope.carried = true;
    return { [kind]: stamped.request };
  });
  return { ...input, TransactItems: [...items, ...events] };
}

/** The writes it looks at, as the document client's commands name them to the client's stack. */
const OPERATIONS: Readonly<Record<string, string>> = {
  PutItemCommand: 'PutItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  TransactWriteItemsCommand: 'TransactWriteItems',
};

/** Stamps every write the client sends (before the local IAM check, so it sees the event's put too). */
export function installAuditStamp(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = OPERATIONS[context.commandName ?? ''];
      if (operation === undefined) return next(args);
      return next({ ...args, input: stampedInput(operation, args.input as Input, auditScope()) });
    },
    { step: 'initialize', name: 'auditStamp', priority: 'high' },
  );
}
