import { type AuditAction, type AuditStamp, newEventIdentity, SYSTEM_ACTOR } from '#shared/model/audit.ts';
import { teamOfPartition } from '#shared/model/teams.ts';
import { config } from '#shared/runtime/config.ts';
import { asChange, auditScope } from './scope.ts';

// The platform's own changes in a team's audit log: made by `system`, not by a request's caller.
// Apart from audit-scope.ts, which the store's client loads: this one reads the configuration.

/**
 * Runs one of the platform's own moves (an automatic promotion, a background check that verified or
 * expired a domain, a webhook disabled after its deliveries kept failing) as a change of the team that owns `partition`, made by `system`: its write carries
 * the stamp. Inside a request (the report that made a deployment ready) the event keeps its request id.
 */
export function asSystemChange<T>(
  action: AuditAction,
  partition: string,
  move: () => Promise<T>,
): Promise<T> {
  const request = auditScope()?.stamp;
  const stamp: AuditStamp = {
    ...newEventIdentity(config.AUDIT_RETENTION_DAYS),
    action,
    teamId: teamOfPartition(partition),
    actor: SYSTEM_ACTOR,
    requestId: request?.requestId ?? '',
    ip: request?.ip ?? '',
    userAgent: request?.userAgent ?? '',
  };
  return asChange(stamp, move);
}
