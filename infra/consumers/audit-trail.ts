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

// The audit log's recorder (functions/audit/record-audit-events.ts), fed by the stream of every table a
// team's change writes, each filtered to the records whose write carried an audit stamp: a change's
// own (shared/db/audit/stamp.ts). What it may call is its consumer row's (shared/consumers.ts): one
// put on the audit table. A batch it cannot record comes back until it is recorded, and then goes to
// the stream-failures queue, whose alarm pages: a change is never silently missing from the log.

const consumer = streamConsumers.find(({ handler }) => handler === 'record-audit-events');

export interface AuditTrailProps {
  /** The stack's tables: its stream sources and those its grants name. */
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /** Where a batch it gave up on goes (infra/consumers/stream-failures.ts). */
  onFailure: SqsDlq;
}

export class AuditTrail extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: AuditTrailProps) {
    super(scope, id);
    if (!consumer) throw new Error('No record-audit-events consumer in shared/consumers.ts');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'audit',
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
    });
    bindGrants(this.function, functionGrants(consumer.handler), { tables: props.tables });
    for (const table of consumer.streams) {
      this.function.addEventSource(
        streamSource(props.tables[table], {
          batchSize: 100,
          maxBatchingWindow: Duration.seconds(1),
          retryAttempts: 100,
          onFailure: props.onFailure,
          filter: filterOf(consumer, table),
        }),
      );
    }
  }
}
