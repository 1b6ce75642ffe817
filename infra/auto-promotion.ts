import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, type SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { filterOf, streamConsumers } from '../shared/consumers.ts';
import type { TableKey } from '../shared/db/tables.ts';
import { bindGrants } from './bind-grants.ts';
import { consumerFunction } from './consumer-function.ts';
import { functionGrants } from './grants.ts';
import { STREAM_RECORD_MAX_AGE } from './stream-failures.ts';

// Automatic promotion (functions/auto-promote.ts), fed by the deployments table's stream: only the
// changes that made a production deployment ready (its row's filter). It reads the project and moves
// its production pointer in one transaction with the history entry (shared/db/production.ts): what
// it may call is its consumer row's (shared/consumers.ts).

const consumer = streamConsumers.find(({ handler }) => handler === 'auto-promote');

export interface AutoPromotionProps {
  /** The stack's tables: its stream source and those its grants name. */
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /** Where a batch it gave up on goes (infra/stream-failures.ts). */
  onFailure: SqsDlq;
}

export class AutoPromotion extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: AutoPromotionProps) {
    super(scope, id);
    if (!consumer) throw new Error('No auto-promote consumer in shared/consumers.ts');
    const becameReady = filterOf(consumer, 'deployments');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'deployments',
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
    });
    bindGrants(this.function, functionGrants(consumer.handler), { tables: props.tables });
    this.function.addEventSource(
      new DynamoEventSource(props.tables.deployments, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 10,
        // A batch it could not finish comes back from the record that failed, halved when the whole
        // batch fails, for half a day; then it goes to the stream-failures queue, whose alarm pages.
        ...(becameReady ? { filters: [FilterCriteria.filter(becameReady)] } : {}),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 100,
        maxRecordAge: STREAM_RECORD_MAX_AGE,
        onFailure: props.onFailure,
      }),
    );
  }
}
