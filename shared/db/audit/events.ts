import { tableName } from '#shared/db/tables.ts';
import type { AuditChange, AuditEvent, AuditOutcome, AuditStamp } from '#shared/model/audit.ts';

// The audit log's events as stored, one partition per team (`teamId`), sorted by `id`: ULIDs, so
// newest first is the key order and a time range is a key range. Each expires AUDIT_RETENTION_DAYS
// after it happened (the table's TTL). Written three ways (shared/db/audit/stamp.ts says which
// when): from a change's stream record, in a change's own transaction, or on its own (a refusal, a
// test delivery; shared/db/audit/log.ts). No client here: the store's client itself builds events.

export const table = (): string => tableName('auditEvents');

export interface EventDetails {
  outcome: AuditOutcome;
  target: { type: string; id: string };
  projectId?: string | undefined;
  changes?: Record<string, AuditChange> | undefined;
  /** The team, where the stamp does not name it (a team's own items name theirs). */
  teamId?: string | undefined;
  /** The action as it turned out, where the stamp's was the request's (a check that verified). */
  action?: string;
}

/** The stored item of the event a stamp and its details make. */
export function eventItem(stamp: AuditStamp, details: EventDetails): Record<string, unknown> {
  const teamId = stamp.teamId ?? details.teamId;
  if (teamId === undefined) throw new Error(`The event of ${stamp.action} names no team`);
  const event: AuditEvent = {
    id: stamp.id,
    teamId,
    at: stamp.at,
    action: details.action ?? stamp.action,
    outcome: details.outcome,
    actor: stamp.actor,
    target: details.target,
    ...(details.projectId === undefined ? {} : { projectId: details.projectId }),
    requestId: stamp.requestId,
    ip: stamp.ip,
    userAgent: stamp.userAgent,
    ...(details.changes === undefined ? {} : { changes: details.changes }),
  };
  return { ...event, expiresAt: stamp.expiresAt };
}

/** A stored event as the API shows it. */
export function toAuditEvent(item: Record<string, unknown>): AuditEvent {
  const { expiresAt: _expiresAt, ...event } = item;
  return event as unknown as AuditEvent;
}
