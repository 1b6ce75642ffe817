import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TableKey } from '#shared/db/tables.ts';
import { AuditTrail } from './audit-trail.ts';
import { AutoPromotion } from './auto-promotion.ts';
import { ProjectPurge } from './project-purge.ts';
import type { StreamFailures } from './stream-failures.ts';

// The stream consumers besides the webhook fan-out (infra/consumers/webhooks.ts, which brings its queue): the
// purge of a deleted project, the automatic promotion and the audit log's recorder. Each hands what
// it gives up on to the stream-failures queue and has its IteratorAge alarm. Made in the stack's own
// scope, under the ids they were first deployed with.

export interface StreamConsumersProps {
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  streamFailures: StreamFailures;
  /** Minutes behind its stream after which a consumer's IteratorAge alarm fires. */
  iteratorAgeMinutes: number;
}

export function addStreamConsumers(scope: Construct, props: StreamConsumersProps) {
  const { tables, logRetention, streamFailures } = props;
  const common = { tables, logRetention, onFailure: streamFailures.destination };
  const purge = new ProjectPurge(scope, 'ProjectPurge', common);
  const autoPromotion = new AutoPromotion(scope, 'AutoPromotion', common);
  // The audit log's recorder, fed by every stream a team's change writes to.
  const auditTrail = new AuditTrail(scope, 'AuditTrail', common);
  streamFailures.watchIteratorAge('PurgeProject', purge.function, props.iteratorAgeMinutes);
  streamFailures.watchIteratorAge('AutoPromote', autoPromotion.function, props.iteratorAgeMinutes);
  streamFailures.watchIteratorAge('RecordAuditEvents', auditTrail.function, props.iteratorAgeMinutes);
  return { purge, autoPromotion, auditTrail };
}
