import type { AccessRequest } from '#shared/runtime/access-check.ts';

// What IAM checks for one DynamoDB call: its action on each table (or index) it touches. A batch asks
// for the batch action on every table it names; a transaction asks for each item's own action
// (PutItem, UpdateItem, DeleteItem, ConditionCheckItem; GetItem for TransactGetItems), since IAM has
// no transaction actions. Commands are named as the client sends them, by the document client's
// names too (`GetCommand` is GetItem).

type Input = Record<string, unknown>;

const DOCUMENT_NAMES: Readonly<Record<string, string>> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

/** The operation of a command (`GetItemCommand` and `GetCommand` are both GetItem). */
export const operationOf = (commandName: string): string => {
  const name = commandName.replace(/Command$/, '');
  return DOCUMENT_NAMES[name] ?? name;
};

const TRANSACT_ITEM_ACTIONS: Readonly<Record<string, string>> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

const on = (action: string, table: unknown, index?: unknown): AccessRequest => ({
  action: `dynamodb:${action}`,
  resource: {
    service: 'dynamodb',
    table: String(table),
    ...(typeof index === 'string' ? { index } : {}),
  },
});

/** The checks one call needs, from its operation and its input. */
export function dynamodbRequests(operation: string, input: Input): AccessRequest[] {
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem')
    return Object.keys((input.RequestItems ?? {}) as Input).map((table) => on(operation, table));
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    const items = (input.TransactItems ?? []) as Input[];
    return items.flatMap((item) =>
      Object.entries(item).map(([kind, request]) =>
        on(TRANSACT_ITEM_ACTIONS[kind] ?? kind, (request as Input).TableName),
      ),
    );
  }
  if ('TableName' in input) return [on(operation, input.TableName, input.IndexName)];
  // ListTables and the like name no table: IAM checks them on `*`.
  return [on(operation, '*')];
}
