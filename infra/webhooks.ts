import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueConsumers, streamConsumers } from '../shared/consumers.ts';
import type { TableKey } from '../shared/db/tables.ts';
import { consumerFunction } from './consumer-function.ts';
import { bindTable, type EndpointFunction } from './endpoint-function.ts';

// Webhooks in the stack. Changes leave the projects and deployments tables through their streams;
// the fan-out function turns each into one message per interested subscription on the delivery
// queue; the delivery function makes one attempt per message. A failed attempt is sent back to the
// same queue with the schedule's delay (in hops of at most 15 minutes, SQS's longest delay), and
// one whose schedule ran out goes to the dead-letter queue, as does a message that makes the
// function itself fail five times. An alarm fires on the first dead letter.

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
    this.fanOut = this.addFunction('FanOut', fanOutConsumer.handler, Duration.seconds(30));
    bindTable(this.fanOut, 'webhooks', props.tables.webhooks, ['dynamodb:Query']);
    this.bindQueue(this.fanOut);
    for (const key of fanOutConsumer.streams) {
      this.fanOut.addEventSource(
        new DynamoEventSource(props.tables[key], {
          startingPosition: StartingPosition.LATEST,
          batchSize: 100,
          // A failing batch is halved until the record that fails is alone; records are retried for
          // a day at most, like deliveries.
          bisectBatchOnError: true,
          retryAttempts: 10,
          maxRecordAge: Duration.days(1),
        }),
      );
    }

    this.delivery = this.addFunction('Delivery', deliveryConsumer.handler, DELIVERY_TIMEOUT);
    bindTable(this.delivery, 'webhooks', props.tables.webhooks, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    bindTable(this.delivery, 'webhookDeliveries', props.tables.webhookDeliveries, ['dynamodb:PutItem']);
    this.bindQueue(this.delivery);
    this.deadLetterQueue.grantSendMessages(this.delivery);
    this.delivery.addEnvironment('WEBHOOK_DEAD_LETTER_QUEUE_URL', this.deadLetterQueue.queueUrl);
    this.delivery.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 20 }),
    );

    // The rows that send to the queue themselves (POST /webhooks/{id}/test).
    for (const fn of props.endpointFunctions.values()) {
      if (fn.route.queues?.includes('webhookDeliveries')) this.bindQueue(fn);
    }

    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription:
        'Webhook deliveries were dead-lettered: a receiver failed for a whole day, or the delivery function keeps failing',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
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

  /** Sending to the delivery queue: its URL and SendMessage on it. */
  private bindQueue(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    fn.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }
}
