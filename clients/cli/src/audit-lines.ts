import type { Schemas } from '@platform-api/client';
import { table } from './output.ts';

// A team's audit events as `platform audit` prints them: one event a line, in the API's order
// (newest first), a refusal marked DENIED, and what changed as `field: from → to`. The table fits
// 120 columns: who acted by email or token name, what by its short id, and changes too long
// for the line go on under their column. `--wide` prints every id whole, the project and the
// address, one line an event however long.

type AuditEvent = Schemas['AuditEvent'];

/** The width the narrow table keeps to. */
export const AUDIT_WIDTH = 120;
// The widest each narrow column may be: with the time (14) and the outcome (7), at least 26 are left
// for the changes (the longest action today has 25).
const ACTION_MAX = 25;
const ACTOR_MAX = 20;
const TARGET_MAX = 18;

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

/** What an event changed, a `field: from → to` each. */
function changeParts(changes: AuditEvent['changes']): string[] {
  return Object.entries(changes ?? {}).map(([field, { from, to }]) =>
    from === null || from === undefined
      ? `${field}: ${brief(to)}`
      : `${field}: ${brief(from)} → ${brief(to)}`,
  );
}

/** What an event changed: `name: web → site; production: dpl_a → dpl_b`. */
export const changesText = (changes: AuditEvent['changes']): string => changeParts(changes).join('; ');

/** At most `max` characters, an ellipsis where it was cut. */
const clipped = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** An id short enough to tell apart on a screen, `prj_…Y1Z2A` (whole with --wide); its prefix names its type. */
const shortId = (id: string): string => {
  const prefix = /^[a-z]{2,5}_/.exec(id)?.[0];
  return prefix && id.length > prefix.length + 7 ? `${prefix}…${id.slice(-6)}` : id;
};

/** What an event is about: an id with a prefix by its short form, anything else (a domain) with its type. */
const targetNarrow = ({ type, id }: AuditEvent['target']): string =>
  clipped(/^[a-z]{2,5}_/.test(id) ? shortId(id) : `${type}:${id}`, TARGET_MAX);

/** Who acted, with --wide: the type and id a filter takes (`--actor`), and an email or name beside them. */
const actorWide = ({ type, id, email, name }: AuditEvent['actor']): string => {
  const known = email ?? name;
  return known === undefined ? `${type}:${id}` : `${type}:${id} (${known})`;
};

/** Who acted, narrow: a person's email, a token's name, the platform, else a short id. */
const actorNarrow = ({ type, id, email, name }: AuditEvent['actor']): string =>
  clipped(
    email ?? (name === undefined ? (type === 'system' ? id : shortId(id)) : `token ${name}`),
    ACTOR_MAX,
  );

/** `2026-11-28T18:05:14.123Z` as `11-28 18:05:14` (UTC, as the header says). */
const shortTime = (at: string): string => at.slice(5, 19).replace('T', ' ');

/** Changes as lines of at most `width`, broken between changes (and within one only when it must be). */
function wrapped(parts: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const next = line === '' ? part : `${line}; ${part}`;
    if (next.length <= width) line = next;
    else {
      if (line !== '') lines.push(`${line};`);
      line = part;
      while (line.length > width) {
        lines.push(line.slice(0, width));
        line = line.slice(width);
      }
    }
  }
  return line === '' ? [] : [...lines, line];
}

/** The events as a table that fits 120 columns; `wide`: every field whole, one line each. */
export function auditTable(events: AuditEvent[], wide = false): string {
  if (wide) {
    return table(
      ['time', 'action', 'outcome', 'actor', 'target', 'project', 'ip', 'changes'],
      events.map((event) => [
        event.at,
        event.action,
        event.outcome === 'denied' ? 'DENIED' : 'success',
        actorWide(event.actor),
        `${event.target.type}:${event.target.id}`,
        event.projectId ?? '-',
        event.ip || '-',
        changesText(event.changes),
      ]),
    );
  }
  const rows = events.map((event) => [
    shortTime(event.at),
    clipped(event.action, ACTION_MAX),
    event.outcome === 'denied' ? 'DENIED' : 'success',
    actorNarrow(event.actor),
    targetNarrow(event.target),
  ]);
  const header = ['time (utc)', 'action', 'outcome', 'actor', 'target'];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const indent = widths.reduce((sum, width) => sum + width + 2, 0);
  const room = AUDIT_WIDTH - indent;
  const lines = table(
    [...header, 'changes'],
    rows.map((row, i) => [...row, wrapped(changeParts(events[i]?.changes), room)[0] ?? '']),
  ).split('\n');
  // Each event's further lines of changes, under its column.
  const out = [lines[0] ?? ''];
  events.forEach((event, i) => {
    out.push(lines[i + 1] ?? '');
    for (const more of wrapped(changeParts(event.changes), room).slice(1))
      out.push(`${' '.repeat(indent)}${more}`);
  });
  return out.join('\n');
}
