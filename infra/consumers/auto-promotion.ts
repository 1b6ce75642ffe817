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

// Automatic promotion (functions/production/auto-promote.ts), fed by the deployments table's stream: only the
// changes that made a production deployment ready (its row's filter). It reads the project and moves
// its production pointer in one transaction with the history entry (shared/db/production.ts): what
// it may call is its consumer row's (shared/consumers.ts).

const consumer = streamConsumers.find(({ handler }) => handler === 'auto-promote');

export interface AutoPromotionProps {
  /** The stack's tables: its stream source and those its grants name. */
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /** Where a batch it gave up on goes (infra/consumers/stream-failures.ts). */
  onFailure: SqsDlq;
}

export class AutoPromotion extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: AutoPromotionProps) {
    super(scope, id);
    if (!consumer) throw new Error('No auto-promote consumer in shared/consumers.ts');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'deployments',
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
    });
    bindGrants(this.function, functionGrants(consumer.handler), { tables: props.tables });
    // Only the changes that made a production deployment ready reach it (its row's filter).
    this.function.addEventSource(
      streamSource(props.tables.deployments, {
        batchSize: 10,
        retryAttempts: 100,
        onFailure: props.onFailure,
        filter: filterOf(consumer, 'deployments'),
      }),
    );
  }
}
