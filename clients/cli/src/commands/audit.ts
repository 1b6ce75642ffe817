import type { Query, Schemas } from '@platform-api/client';
import { auditTable } from '../audit-lines.ts';
import type { Commands } from '../command.ts';
import { CliError, defined, type Flags, integer, string } from '../flags.ts';
import { instant } from '../instant.ts';
import { projectId } from '../project-ref.ts';
import { teamInEffect } from '../team-ref.ts';

// `platform audit`: the audit log of the team in effect (admins and owners, with a person's key),
// newest first: every change made there and every request refused, who did it and from where
// (docs/audit-log.md). Every flag is checked before the first request. The log is long (90 days of
// a team), so it prints the newest --limit (default 50) and says when more match; --all reads on.
// The table fits 120 columns; --wide prints every id whole (clients/cli/src/audit-lines.ts).

type Filters = Query<'listAuditEvents'>;
type AuditEvent = Schemas['AuditEvent'];

const DEFAULT_LIMIT = 50;
const PAGE_MAX = 100;
const ACTION = /^[A-Za-z][A-Za-z0-9_]*(\.([a-z][a-z0-9_]*|\*))?$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function matching(flags: Flags, name: string, pattern: RegExp, what: string): string | undefined {
  const value = string(flags, name);
  if (value !== undefined && (value.length > 64 || !pattern.test(value)))
    throw new CliError('usage_error', `--${name} must be ${what}, not ${value}`);
  return value;
}

/** `--actor`: a person by their email, else an actor by id (a user's, a team token's, or platform). */
function actorFilter(actor: string | undefined): Pick<Filters, 'actorId' | 'actorEmail'> {
  if (actor === undefined) return {};
  if (actor.includes('@')) {
    if (actor.length > 254 || /\s/.test(actor.trim()))
      throw new CliError(
        'usage_error',
        `--actor must be an email, a user id, a team token id or platform, not ${actor}`,
      );
    return { actorEmail: actor };
  }
  if (actor.length > 64 || !ID.test(actor))
    throw new CliError(
      'usage_error',
      `--actor must be an email, a user id, a team token id or platform, not ${actor}`,
    );
  return { actorId: actor };
}

/** The filters the flags give, except the project (a name costs a request); refused before any request. */
function filtersOf(flags: Flags): Filters {
  const since = instant(flags, 'since');
  const until = instant(flags, 'until');
  if (since !== undefined && until !== undefined && since > until)
    throw new CliError('usage_error', `--since (${since}) is after --until (${until})`);
  const outcome = string(flags, 'outcome');
  if (outcome !== undefined && outcome !== 'success' && outcome !== 'denied')
    throw new CliError('usage_error', `--outcome must be success or denied, not ${outcome}`);
  return defined({
    since,
    until,
    action: matching(
      flags,
      'action',
      ACTION,
      'an action such as project.created, or its first word (project)',
    ),
    ...actorFilter(string(flags, 'actor')),
    outcome,
  });
}

/** How many events to print: --limit (default 50), or every one with --all. */
function howMany(flags: Flags): number {
  const limit = integer(flags, 'limit');
  if (flags.all && limit !== undefined) throw new CliError('usage_error', 'Give --limit or --all, not both');
  if (limit === 0) throw new CliError('usage_error', '--limit must be at least 1');
  return flags.all ? Number.POSITIVE_INFINITY : (limit ?? DEFAULT_LIMIT);
}

export const auditCommands: Commands = {
  audit: {
    usage:
      'audit [--since <time>] [--until <time>] [--action <action>] [--actor <email or id>] [--project <id or name>] [--outcome success|denied] [--limit <n> | --all] [--wide]',
    summary: 'Print the audit log of the team in effect, newest first: every change and every refusal.',
    options: {
      since: {
        type: 'string',
        help: 'only events from this time on: a time with its zone, a day, or a span back (90m, 24h, 7d)',
      },
      until: { type: 'string', help: 'only events up to this time, given as for --since' },
      action: {
        type: 'string',
        help: 'only events of this action (project.created), of its first word (project), or a refused permission',
      },
      actor: {
        type: 'string',
        help: "only events of this actor: a person's email or user id, a team token's id, or platform",
      },
      project: { type: 'string', help: 'only events of this project, by id or name' },
      outcome: { type: 'string', help: 'only successes or only refusals: success or denied (default: both)' },
      limit: {
        type: 'string',
        help: 'print the newest n events (default 50); a last line says when more match',
      },
      all: { type: 'boolean', help: 'print every matching event, page by page (not with --limit)' },
      wide: {
        type: 'boolean',
        help: 'print ids whole, the project and the address, an event a line (the table fits 120 columns without)',
      },
    },
    async run({ flags, client }) {
      const filters = filtersOf(flags);
      const wanted = howMany(flags);
      const api = await client();
      const team = await teamInEffect(api);
      const project = string(flags, 'project');
      if (project !== undefined) filters.projectId = await projectId(api, project);
      // One event past the limit says whether more match, without a count.
      const pages = api.auditLog.list(team, { ...filters, limit: Math.min(wanted + 1, PAGE_MAX) });
      const events: AuditEvent[] = [];
      for await (const event of pages) {
        events.push(event);
        if (events.length > wanted) break;
      }
      const more = events.length > wanted;
      if (more) events.pop();
      const hint = `More events match: narrow them (--since, --until, --action, --actor, --project, --outcome), or --limit <n> / --all`;
      const lines = auditTable(events, flags.wide === true);
      return { json: events, text: more ? `${lines}\n${hint}` : lines };
    },
  },
};
