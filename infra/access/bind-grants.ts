import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { type TableKey, tables } from '#shared/db/tables.ts';
import type { QueueKey } from '#shared/routes.ts';
import { KMS_KEY_VARIABLE } from '#shared/runtime/envelope.ts';
import { arnVariableOf, type SecretName } from '#shared/runtime/secrets.ts';
import { type Grant, PLAIN_ONLY_CONDITION } from './grants.ts';

// A function's grants (infra/access/grants.ts) as its role's policy statements, each with the variable
// that tells the code where the resource is: a grant and its variable are bound together, so a
// function never learns of a table it may not touch.

/** The stack's resources the grants name. Queues are bound by the construct that makes them. */
export interface GrantTargets {
  tables: Record<TableKey, ITable>;
  secrets?: Record<SecretName, ISecret>;
  environmentKey?: IKey;
  queues?: Partial<Record<QueueKey, IQueue>>;
}

/** The variable that carries a queue's URL (shared/webhooks/delivery-queue.ts reads it). */
export const QUEUE_URL_VARIABLES: Record<QueueKey, string> = { webhookDeliveries: 'WEBHOOK_QUEUE_URL' };

/** The item actions granted on each table, by every binding: what its alarms watch (infra/operations/monitoring.ts). */
const grantedActions = new WeakMap<ITable, Set<string>>();

/** Every item action some function of the stack may call on `table`. */
export const actionsGrantedOn = (table: ITable): ReadonlySet<string> =>
  grantedActions.get(table) ?? new Set();

function need<T>(target: T | undefined, what: string): T {
  if (target === undefined) throw new Error(`A grant names ${what}, which the stack did not give`);
  return target;
}

function statementOf(grant: Grant, targets: GrantTargets): PolicyStatement | undefined {
  const actions = [...grant.actions];
  switch (grant.service) {
    case 'dynamodb': {
      const table = targets.tables[grant.table];
      // A query of an index is a Query of its table in the table's metrics: both count for its alarms.
      const granted = grantedActions.get(table) ?? new Set<string>();
      for (const action of actions) granted.add(action);
      grantedActions.set(table, granted);
      const arn = grant.index === undefined ? table.tableArn : `${table.tableArn}/index/${grant.index}`;
      return new PolicyStatement({ actions, resources: [arn] });
    }
    case 'kms': {
      const key = need(targets.environmentKey, 'the environment key');
      const { key: conditionKey, value } = PLAIN_ONLY_CONDITION;
      return new PolicyStatement({
        actions,
        resources: [key.keyArn],
        ...(grant.plainOnly ? { conditions: { StringEquals: { [conditionKey]: value } } } : {}),
      });
    }
    case 'secretsmanager': {
      const secret = need(targets.secrets?.[grant.secret], `the secret ${grant.secret}`);
      return new PolicyStatement({ actions, resources: [secret.secretArn] });
    }
    case 'sqs': {
      const queue = targets.queues?.[grant.queue];
      return queue && new PolicyStatement({ actions, resources: [queue.queueArn] });
    }
  }
}

function variableOf(grant: Grant, targets: GrantTargets): [string, string] | undefined {
  switch (grant.service) {
    case 'dynamodb':
      return [tables[grant.table].envVar, targets.tables[grant.table].tableName];
    case 'kms':
      return [KMS_KEY_VARIABLE, need(targets.environmentKey, 'the environment key').keyArn];
    case 'secretsmanager':
      return [arnVariableOf(grant.secret), need(targets.secrets?.[grant.secret], grant.secret).secretArn];
    case 'sqs': {
      const queue = targets.queues?.[grant.queue];
      return queue && [QUEUE_URL_VARIABLES[grant.queue], queue.queueUrl];
    }
  }
}

/**
 * Gives a function exactly `grants`: one statement each on the resource it names (an index by its
 * name: no `index/*`), and the variables that locate them. Queue grants are bound only when
 * `targets.queues` holds their queue.
 */
export function bindGrants(fn: LambdaFunction, grants: readonly Grant[], targets: GrantTargets): void {
  for (const grant of grants) {
    const statement = statementOf(grant, targets);
    if (!statement) continue;
    fn.addToRolePolicy(statement);
    const variable = variableOf(grant, targets);
    if (variable) fn.addEnvironment(...variable);
  }
}
