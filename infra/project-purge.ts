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

// The purge of a deleted project's deployments, their build logs and its environment variables
// (functions/purge-project.ts), fed by the projects table's stream, removals only. What it may call
// is its consumer row's (shared/consumers.ts): query what the project left and delete it.

const consumer = streamConsumers.find(({ handler }) => handler === 'purge-project');

export interface ProjectPurgeProps {
  /** The stack's tables: its stream source and those its grants name. */
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /** Where a batch it gave up on goes (infra/stream-failures.ts). */
  onFailure: SqsDlq;
}

export class ProjectPurge extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ProjectPurgeProps) {
    super(scope, id);
    if (!consumer) throw new Error('No purge-project consumer in shared/consumers.ts');
    const removals = filterOf(consumer, 'projects');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'projects',
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
    });
    bindGrants(this.function, functionGrants('purge-project'), { tables: props.tables });
    this.function.addEventSource(
      new DynamoEventSource(props.tables.projects, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 10,
        // Only removals reach it (its row's filter); a batch it could not finish comes back, halved,
        // for half a day, then goes to the stream-failures queue (the record stays readable for the
        // other half).
        ...(removals ? { filters: [FilterCriteria.filter(removals)] } : {}),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 100,
        maxRecordAge: STREAM_RECORD_MAX_AGE,
        onFailure: props.onFailure,
      }),
    );
  }
}
