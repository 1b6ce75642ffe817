import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

// Where the stream consumers' failures end (docs/runbook.md, Stream failures). Every DynamoDB event
// source mapping of the stack hands a batch it gave up on (retries spent, or the record too old) to
// this queue: a message with the stream's ARN, the shard and the range of sequence numbers, which
// are still readable from the stream for the rest of its 24 hours. An alarm fires on each new
// arrival: Lambda sends them with SendMessage, so NumberOfMessagesSent counts them (unlike a
// redrive into a dead-letter queue). And one IteratorAge alarm per consumer function says that a
// consumer is falling behind long before anything is given up.

/** How old a record may get before its mapping gives up on it: half the stream's 24 hours, so the other half is left to read it. */
export const STREAM_RECORD_MAX_AGE = Duration.hours(12);

const PERIOD = Duration.minutes(5);

export class StreamFailures extends Construct {
  readonly queue: Queue;
  /** The on-failure destination of every stream mapping. */
  readonly destination: SqsDlq;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'It is itself a dead-letter queue: the on-failure destination of the stream event source mappings, read by an operator (docs/runbook.md)',
    });
    this.destination = new SqsDlq(this.queue);
    this.alarms.push(
      new Alarm(this, 'Alarm', {
        alarmDescription:
          'A stream consumer gave up on a batch of records (webhook events or project purges); see the runbook, Stream failures',
        metric: this.queue.metricNumberOfMessagesSent({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /**
   * An alarm when the consumer's oldest record waits longer than `minutes`, in 2 of 3 periods.
   * Lambda reports IteratorAge per function: a function fed by two streams has one alarm for both.
   */
  watchIteratorAge(id: string, fn: IFunction, minutes: number): Alarm {
    const alarm = new Alarm(this, `${id}IteratorAge`, {
      alarmDescription: `${id} is more than ${minutes} minutes behind its stream`,
      metric: fn.metric('IteratorAge', { statistic: 'Maximum', period: PERIOD }),
      threshold: minutes * 60 * 1000,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarms.push(alarm);
    return alarm;
  }
}
