import * as z from 'zod/mini';
import { AUDIT_ACTION_NAMES } from '#shared/model/audit.ts';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { permissionsOf } from '#shared/model/roles.ts';
import { atMost } from './common.ts';
import { PageQuery } from './page-query.ts';

// The audit log's query: `?since=&until=&action=&actorId=&projectId=&outcome=` with the list's
// `limit` and `cursor` (../shared/CONTRACT.md, "The audit log").

const ISO_MESSAGE = 'must be an ISO-8601 date and time, e.g. 2026-11-25T09:15:00Z';
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether the text is an ISO-8601 date and time of a day that exists: `Date.parse` reads
 * 2026-02-31 as 3 March, which a filter must not do silently.
 */
function isInstant(value: string): boolean {
  const parts = ISO_DATE_TIME.exec(value);
  if (!parts || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [parts[1], parts[2], parts[3]].map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A point in time as the client writes it, read as epoch milliseconds. */
const Instant = (description: string) =>
  z.optional(
    z
      .pipe(
        z.string().check(atMost(40, ISO_MESSAGE), z.refine(isInstant, ISO_MESSAGE)),
        z.transform((value: string) => Date.parse(value)),
      )
      .register(z.globalRegistry, {
        description,
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
          Object.assign(jsonSchema, {
            type: 'string',
            format: 'date-time',
            examples: ['2026-11-25T09:15:00Z'],
          });
        },
      }),
  );

const NOT_EMPTY = z.minLength(1, 'must not be empty');

const Word = (description: string, example: string) =>
  z
    .optional(z.string().check(atMost(ID_MAX_LENGTH), NOT_EMPTY))
    .register(z.globalRegistry, { description, examples: [example] });

/** What an event's `action` may be: a change's action, or for a refusal of a read the permission it lacked. */
const FILTERABLE_ACTIONS: ReadonlySet<string> = new Set([...AUDIT_ACTION_NAMES, ...permissionsOf('owner')]);
const ACTION_MESSAGE = 'must be one of the actions of docs/audit-log.md, or a permission (e.g. audit.read)';

export const AuditEventsQuery = z
  .extend(PageQuery, {
    since: Instant('Only events at or after this time.'),
    until: Instant('Only events at or before this time.'),
    action: z
      .optional(
        z.string().check(
          atMost(64),
          z.refine((value: string) => FILTERABLE_ACTIONS.has(value), ACTION_MESSAGE),
        ),
      )
      .register(z.globalRegistry, {
        description: `Only events of this action: one of ${AUDIT_ACTION_NAMES.join(', ')}; a refusal's is what the refused request would have done, or the permission it lacked where it changes nothing (e.g. \`audit.read\`).`,
        examples: ['production.promoted'],
      }),
    actorId: Word(
      'Only events of this actor: a user id, a team token id, or `platform`.',
      'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
    ),
    projectId: Word(
      'Only events about this project or one of its deployments, variables or domains.',
      'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
    ),
    outcome: z.optional(z.enum(['success', 'denied'])).register(z.globalRegistry, {
      description: 'Only changes made (`success`) or only refusals (`denied`).',
    }),
  })
  .check(
    z.refine(
      (query) => query.since === undefined || query.until === undefined || query.since <= query.until,
      {
        message: 'must not be before since',
        path: ['until'],
      },
    ),
  );

export type AuditEventsFilter = z.output<typeof AuditEventsQuery>;
