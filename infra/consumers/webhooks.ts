import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { filterOf, queueConsumers, streamConsumers } from '#shared/consumers.ts';
import type { TableKey } from '#shared/db/tables.ts';
import { bindGrants } from '../access/bind-grants.ts';
import { functionGrants, grantsOf } from '../access/grants.ts';
import type { EndpointFunction } from '../api/endpoint-function.ts';
import { consumerFunction } from './consumer-function.ts';
import { streamSource } from './stream-source.ts';

// Webhooks in the stack. Changes leave the projects and deployments tables through their streams;
// the fan-out function turns each into one message per interested subscription on the delivery
// queue; the delivery function makes one attempt per message. A failed attempt is sent back to the
// same queue with the schedule's delay (in hops of at most 15 minutes, SQS's longest delay). One
// whose schedule ran out ends in the delivery log (and may disable its subscription): the
// customer's receiver failed, which pages nobody. Only a message that makes the function itself
// fail five times (our fault: the store, the queue, a bug) goes to the dead-letter queue, and an
// alarm fires on each new arrival there (docs/runbook.md, Webhook dead letters).

const fanOutConsumer = streamConsumers.find((consumer) => consumer.handler === 'webhook-fan-out');
const [deliveryConsumer] = queueConsumers;

/** An attempt waits at most 10 s for its receiver; ten run at once, plus the store around them. */
const DELIVERY_TIMEOUT = Duration.seconds(30);

export interface WebhooksProps {
  tables: Record<TableKey, ITable>;
  /** The route table's functions by handler: those whose row names a queue are given it. */
  endpointFunctions: ReadonlyMap<string, EndpointFunction>;
  /** How long the consumers' log groups keep lines (the stack's setting). */
  logRetention: RetentionDays;
  /** Where a batch of stream records the fan-out gave up on goes (infra/consumers/stream-failures.ts). */
  onStreamFailure: SqsDlq;
}

export class Webhooks extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fanOut: NodejsFunction;
  readonly delivery: NodejsFunction;
  readonly deadLetterAlarm: Alarm;
  private readonly logRetention: RetentionDays;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'DeliveryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for a Lambda event source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      // Only a message the function fails on (not a failed delivery, which is re-sent) counts here.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });

    this.logRetention = props.logRetention;
    if (!fanOutConsumer) throw new Error('No webhook-fan-out consumer in shared/consumers.ts');
    const queues = { webhookDeliveries: this.queue };
    this.fanOut = this.addFunction('FanOut', fanOutConsumer.handler, Duration.seconds(30));
    bindGrants(this.fanOut, functionGrants(fanOutConsumer.handler), { tables: props.tables, queues });
    for (const key of fanOutConsumer.streams) {
      // Only the records its row's filter names invoke it (the environment table: head items).
      this.fanOut.addEventSource(
        streamSource(props.tables[key], {
          batchSize: 100,
          retryAttempts: 10,
          onFailure: props.onStreamFailure,
          filter: filterOf(fanOutConsumer, key),
        }),
      );
    }

    this.delivery = this.addFunction('Delivery', deliveryConsumer.handler, DELIVERY_TIMEOUT);
    bindGrants(this.delivery, functionGrants(deliveryConsumer.handler), { tables: props.tables, queues });
    this.delivery.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 20 }),
    );

    // The rows that send to the queue themselves (POST /webhooks/{id}/test): their queue grants,
    // which their functions could not bind before the queue existed.
    for (const fn of props.endpointFunctions.values()) {
      const queueGrants = grantsOf(fn.route).filter((grant) => grant.service === 'sqs');
      bindGrants(fn, queueGrants, { tables: props.tables, queues });
    }

    // New arrivals, not the standing depth: SQS moves dead letters without counting them in
    // NumberOfMessagesSent, so the alarm reads the increase of the visible messages. It returns to
    // OK once no new one came for 15 minutes, and fires again on the next, while older ones wait to
    // be inspected and redriven. A quiet queue publishes no data: filled with 0, a first arrival
    // after a quiet spell is an increase too.
    const period = Duration.minutes(5);
    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription:
        "The webhook delivery function failed on a message five times (our fault, not a receiver's); see the runbook, Webhook dead letters",
      metric: new MathExpression({
        expression: 'DIFF(FILL(visible, 0))',
        usingMetrics: {
          visible: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period,
            statistic: 'Maximum',
          }),
        },
        label: 'new dead letters',
        period,
      }),
      threshold: 0,
      evaluationPeriods: 3,
      datapointsToAlarm: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  private addFunction(id: string, handler: string, timeout: Duration): NodejsFunction {
    return consumerFunction(this, id, {
      handler,
      area: 'webhooks',
      timeout,
      logRetention: this.logRetention,
    });
  }
}
