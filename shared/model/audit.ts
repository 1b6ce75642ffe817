import { newId, timeOfId } from './ids.ts';

// The audit log's vocabulary: what a team's events say (../shared/CONTRACT.md, "The audit log").
// Every change a team's route makes is one event, named `resource.verb`; which item of the store
// is the change's own (its "kind") decides where the event comes from (shared/db/audit/stamp.ts).

/** The kinds of stored item an event can be about (shared/db/audit/kinds.ts tells them apart). */
export type AuditItemKind =
  | 'project'
  | 'deployment'
  | 'deploymentLog'
  | 'environment'
  | 'domain'
  | 'webhook'
  | 'team'
  | 'member'
  | 'invitation'
  | 'apiKey';

/** What an event's `target.type` may be. */
export type AuditTargetType =
  | 'project'
  | 'deployment'
  | 'environment'
  | 'domain'
  | 'webhook'
  | 'team'
  | 'member'
  | 'invitation'
  | 'token'
  | 'key';

interface ActionSpec {
  /** The item whose write is the change; none for a change that writes no item (a test delivery). */
  kind?: AuditItemKind;
  target: AuditTargetType;
}

/**
 * Every action, with the item that carries it and the target it names. One row per route that
 * changes something, plus the platform's own moves (`system`).
 */
// biome-ignore format: rows read as a table
export const auditActions = {
  'project.created': { kind: 'project', target: 'project' },
  'project.updated': { kind: 'project', target: 'project' },
  'project.deleted': { kind: 'project', target: 'project' },
  'production.promoted': { kind: 'project', target: 'project' },
  'production.rolled_back': { kind: 'project', target: 'project' },
  'deployment.created': { kind: 'deployment', target: 'deployment' },
  'deployment.event_reported': { kind: 'deployment', target: 'deployment' },
  'deployment.canceled': { kind: 'deployment', target: 'deployment' },
  'deployment.logs_appended': { kind: 'deploymentLog', target: 'deployment' },
  'deployment.build_env_read': { kind: 'deployment', target: 'deployment' },
  'env.variable_created': { kind: 'environment', target: 'environment' },
  'env.variable_updated': { kind: 'environment', target: 'environment' },
  'env.variable_deleted': { kind: 'environment', target: 'environment' },
  'env.replaced': { kind: 'environment', target: 'environment' },
  'webhook.created': { kind: 'webhook', target: 'webhook' },
  'webhook.updated': { kind: 'webhook', target: 'webhook' },
  'webhook.deleted': { kind: 'webhook', target: 'webhook' },
  'webhook.tested': { target: 'webhook' },
  'webhook.disabled': { kind: 'webhook', target: 'webhook' },
  'domain.created': { kind: 'domain', target: 'domain' },
  'domain.deleted': { kind: 'domain', target: 'domain' },
  'domain.checked': { kind: 'domain', target: 'domain' },
  'domain.verified': { kind: 'domain', target: 'domain' },
  'domain.expired': { kind: 'domain', target: 'domain' },
  'team.created': { kind: 'team', target: 'team' },
  'team.renamed': { kind: 'team', target: 'team' },
  'team.deleted': { kind: 'team', target: 'team' },
  'member.joined': { kind: 'member', target: 'member' },
  'member.role_changed': { kind: 'member', target: 'member' },
  'member.removed': { kind: 'member', target: 'member' },
  'invitation.created': { kind: 'invitation', target: 'invitation' },
  'invitation.revoked': { kind: 'invitation', target: 'invitation' },
  'token.created': { kind: 'apiKey', target: 'token' },
  'token.revoked': { kind: 'apiKey', target: 'token' },
  'key.created': { kind: 'apiKey', target: 'key' },
  'key.revoked': { kind: 'apiKey', target: 'key' },
} as const satisfies Record<string, ActionSpec>;

export type AuditAction = keyof typeof auditActions;

export const AUDIT_ACTION_NAMES = Object.keys(auditActions) as AuditAction[];

export const isAuditAction = (value: string): value is AuditAction => Object.hasOwn(auditActions, value);

/** The item whose write is the action's change; none for an action that is not a change's. */
export const kindOfAction = (action: string): AuditItemKind | undefined =>
  isAuditAction(action) ? (auditActions[action] as ActionSpec).kind : undefined;

/** What an action's events name as their target: its table's, else the action's first word. */
export const targetTypeOf = (action: string): string =>
  isAuditAction(action) ? auditActions[action].target : (action.split('.')[0] ?? action);

export type AuditOutcome = 'success' | 'denied';

/** Who did it: a person's key (`user`, with the key), a team token (`token`), or the platform. */
export interface AuditActor {
  type: 'user' | 'token' | 'system';
  id: string;
  /** A user's email, filled in where events are read (shared/domain/audit.ts), never stored. */
  email?: string;
  /** A team token's name as it was when it acted (stored: a token's name is all a person knows it by). */
  name?: string;
  keyId?: string;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: 'platform' };

export interface AuditChange {
  from: unknown;
  to: unknown;
}

/**
 * Who is changing what, written on the item a change writes (`audit`), so that the item's stream
 * record says who did it; or, where the change leaves no record that could (a delete), the event
 * itself is written in the change's transaction. `id` is the event's: one request, one event.
 */
export interface AuditStamp {
  id: string;
  at: string;
  /** A change's action; a refusal's is what was refused (the row's action or permission). */
  action: string;
  /** The team it acts in; absent where the team is the written item's own (a new team, joining one). */
  teamId?: string;
  actor: AuditActor;
  requestId: string;
  ip: string;
  userAgent: string;
  /**
   * When its event expires (epoch seconds): AUDIT_RETENTION_DAYS after `at`, decided where the stamp
   * is made, since the store's client that writes events loads no configuration.
   */
  expiresAt: number;
  /** The project the request names in its path, for changes whose item does not say. */
  projectId?: string;
}

export interface AuditEvent {
  id: string;
  teamId: string;
  at: string;
  action: string;
  outcome: AuditOutcome;
  actor: AuditActor;
  target: { type: string; id: string };
  projectId?: string;
  requestId: string;
  ip: string;
  userAgent: string;
  changes?: Record<string, AuditChange>;
}

/**
 * A new event's id and time, from one reading of the clock, and when it expires (epoch seconds,
 * the audit table's TTL), `retentionDays` after: `since` and `until` select events by
 * their id's time (shared/db/audit/log.ts), so an event's `at` is exactly that time.
 */
export function newEventIdentity(retentionDays: number): { id: string; at: string; expiresAt: number } {
  const id = newId('aud');
  const ms = timeOfId(id);
  return {
    id,
    at: new Date(ms).toISOString(),
    expiresAt: Math.floor(ms / 1000) + retentionDays * DAY_SECONDS,
  };
}

const DAY_SECONDS = 24 * 60 * 60;

/** How much of a client's User-Agent an event keeps. */
export const USER_AGENT_MAX = 256;
