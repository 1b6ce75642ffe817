import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, type SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { filterOf, streamConsumers } from '../shared/consumers.ts';
import { consumerFunction } from './consumer-function.ts';
import { bindTable, TABLE_ACTIONS } from './endpoint-function.ts';
import { STREAM_RECORD_MAX_AGE } from './stream-failures.ts';

// The purge of a deleted project's deployments, their build logs and its environment variables
// (functions/purge-project.ts),
// fed by the projects table's stream, removals only. It may query deployments (their indexes by name)
// and the project's environment partition, and delete what it finds, nothing else.

const consumer = streamConsumers.find(({ handler }) => handler === 'purge-project');

export interface ProjectPurgeProps {
  projects: ITable;
  deployments: ITable;
  environment: ITable;
  deploymentLogs: ITable;
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
    // The same calls as the DELETE's own purge (its row's `purge` access).
    bindTable(this.function, 'deployments', props.deployments, TABLE_ACTIONS.purge);
    bindTable(this.function, 'environment', props.environment, TABLE_ACTIONS.purge);
    bindTable(this.function, 'deploymentLogs', props.deploymentLogs, TABLE_ACTIONS.purge);
    this.function.addEventSource(
      new DynamoEventSource(props.projects, {
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
