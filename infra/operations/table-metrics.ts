import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { actionsGrantedOn } from '../access/bind-grants.ts';

// A table's metrics as its alarms read them (infra/operations/monitoring.ts): the operations its grants allow,
// and its throttle events summed over the table and its indexes.

/** The period of every alarm's metrics. */
export const ALARM_PERIOD = Duration.minutes(5);

/** An IAM item action and the operation DynamoDB reports its throttles and errors under. */
const OPERATION_OF_ACTION: Readonly<Record<string, Operation>> = {
  'dynamodb:GetItem': Operation.GET_ITEM,
  'dynamodb:BatchGetItem': Operation.BATCH_GET_ITEM,
  'dynamodb:PutItem': Operation.PUT_ITEM,
  'dynamodb:UpdateItem': Operation.UPDATE_ITEM,
  'dynamodb:DeleteItem': Operation.DELETE_ITEM,
  'dynamodb:BatchWriteItem': Operation.BATCH_WRITE_ITEM,
  'dynamodb:Query': Operation.QUERY,
  'dynamodb:Scan': Operation.SCAN,
};

/**
 * The operations a table's alarms watch: every item action some function is granted on it (the grants
 * are exactly the calls the code makes), and TransactWriteItems where the code writes in transactions
 * (IAM authorises a transaction by its items' actions, so the grants cannot say). DynamoDB reports
 * throttles and system errors per operation, and an alarm reads each one as a metric ($0.10 a month).
 */
export function operationsOf(table: Table, transactions: boolean): Operation[] {
  const operations = [...actionsGrantedOn(table)].flatMap((action) => OPERATION_OF_ACTION[action] ?? []);
  if (transactions) operations.push(Operation.TRANSACT_WRITE_ITEMS);
  return [...new Set(operations)].sort();
}

/**
 * A table's throttles: read and write throttle events of the table and of each index. Every
 * operation's throttle is one of these (transactions and condition checks too), so this is 2 metrics
 * and 2 more an index, where ThrottledRequests per operation is one metric for each operation the
 * grants allow; system errors have no such sum, and stay per operation.
 */
export function throttleEvents(table: Table, indexNames: readonly string[]): IMetric {
  const metrics: Record<string, IMetric> = {};
  [undefined, ...indexNames].forEach((index, position) => {
    for (const kind of ['Read', 'Write'] as const) {
      metrics[`${kind.toLowerCase()}${position}`] = new Metric({
        namespace: 'AWS/DynamoDB',
        metricName: `${kind}ThrottleEvents`,
        dimensionsMap: {
          TableName: table.tableName,
          ...(index === undefined ? {} : { GlobalSecondaryIndexName: index }),
        },
        period: ALARM_PERIOD,
        statistic: 'Sum',
      });
    }
  });
  return new MathExpression({
    expression: Object.keys(metrics).join(' + '),
    usingMetrics: metrics,
    period: ALARM_PERIOD,
    label: 'throttle events',
  });
}
