import type { Schemas } from '@platform-api/client';
import { table } from './output.ts';

// A team's audit events as `platform audit` prints them: one line each, in the API's order (newest
// first), a refusal marked DENIED, and what changed as `field: from → to`.

type AuditEvent = Schemas['AuditEvent'];

/** A changed value, short: lists by their items, a variable by its key, type and targets. */
function brief(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.map(brief).join(',');
  if (typeof value === 'object') {
    const { key, type, targets } = value as { key?: unknown; type?: unknown; targets?: unknown };
    if (typeof key === 'string') return `${key}(${[type, brief(targets)].filter(Boolean).join(':')})`;
    return JSON.stringify(value);
  }
  return String(value);
}

/** What an event changed: `name: web → site; production: dpl_a → dpl_b`. */
export function changesText(changes: AuditEvent['changes']): string {
  return Object.entries(changes ?? {})
    .map(([field, { from, to }]) =>
      from === null || from === undefined
        ? `${field}: ${brief(to)}`
        : `${field}: ${brief(from)} → ${brief(to)}`,
    )
    .join('; ');
}

/** The events as a table, one line each. */
/** Who acted: the type and id a filter takes (`--actor`), and a person's email or a token's name beside them. */
const actorText = ({ type, id, email, name }: AuditEvent['actor']): string => {
  const known = email ?? name;
  return known === undefined ? `${type}:${id}` : `${type}:${id} (${known})`;
};

export function auditTable(events: AuditEvent[]): string {
  return table(
    ['time', 'action', 'outcome', 'actor', 'target', 'project', 'ip', 'changes'],
    events.map((event) => [
      event.at,
      event.action,
      event.outcome === 'denied' ? 'DENIED' : 'success',
      actorText(event.actor),
      `${event.target.type}:${event.target.id}`,
      event.projectId ?? '-',
      event.ip || '-',
      changesText(event.changes),
    ]),
  );
}
