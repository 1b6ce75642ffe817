import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { filterOf, streamConsumers } from '#shared/consumers.ts';
import type { TableKey } from '#shared/db/tables.ts';
import { bindGrants } from '../access/bind-grants.ts';
import { functionGrants } from '../access/grants.ts';
import { consumerFunction } from './consumer-function.ts';
import { streamSource } from './stream-source.ts';

// The purge of a deleted project's deployments, their build logs and its environment variables
// (functions/projects/purge-project.ts), fed by the projects table's stream, removals only. What it may call
// is its consumer row's (shared/consumers.ts): query what the project left and delete it.

const consumer = streamConsumers.find(({ handler }) => handler === 'purge-project');

export interface ProjectPurgeProps {
  /** The stack's tables: its stream source and those its grants name. */
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /** Where a batch it gave up on goes (infra/consumers/stream-failures.ts). */
  onFailure: SqsDlq;
}

export class ProjectPurge extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ProjectPurgeProps) {
    super(scope, id);
    if (!consumer) throw new Error('No purge-project consumer in shared/consumers.ts');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'projects',
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
    });
    bindGrants(this.function, functionGrants('purge-project'), { tables: props.tables });
    // Only removals reach it (its row's filter).
    this.function.addEventSource(
      streamSource(props.tables.projects, {
        batchSize: 10,
        retryAttempts: 100,
        onFailure: props.onFailure,
        filter: filterOf(consumer, 'projects'),
      }),
    );
  }
}
