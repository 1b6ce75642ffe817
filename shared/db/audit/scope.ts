import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditStamp } from '#shared/model/audit.ts';

// The change a running invocation is making, as the audit log will record it: opened by the request
// chain for a row that changes something (shared/http/audit-trail.ts), or by a consumer around the
// platform's own move; read by the store's client (shared/db/audit/stamp.ts), which puts it on the
// write that is the change. Found from the async context, as the deadline and the store timings are.

export interface AuditScope {
  /** The change, once the chain knows who makes it. */
  stamp?: AuditStamp;
  /** Whether a write has carried it: the change's event cannot be missing. */
  carried: boolean;
}

const current = new AsyncLocalStorage<AuditScope>();

/** Runs one invocation with a scope the chain may open a change in. */
export const withAuditScope = <T>(run: () => Promise<T>): Promise<T> => current.run({ carried: false }, run);

/** The running invocation's scope, if it has one. */
export const auditScope = (): AuditScope | undefined => current.getStore();

/** Runs `change` as the change `stamp` describes: its write carries the stamp. */
export const asChange = <T>(stamp: AuditStamp, change: () => Promise<T>): Promise<T> =>
  current.run({ stamp, carried: false }, change);

/**
 * Closes the running change without an event: the request asked for what already is (a member's
 * current role), so it changed nothing, which the log does not record and the chain does not take
 * for a change whose event went missing.
 */
export function closeUnchanged(): void {
  const scope = current.getStore();
  if (scope) scope.stamp = undefined;
}

/**
 * Names the project the running change is about, where neither its path nor the item it writes says
 * (a build's log is kept by deployment): its event can then be found by project.
 */
export function noteAuditProject(projectId: string): void {
  const stamp = current.getStore()?.stamp;
  if (stamp && stamp.projectId === undefined) stamp.projectId = projectId;
}
