import * as z from 'zod/mini';
import { AUDIT_ACTION_NAMES } from '#shared/model/audit.ts';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { permissionsOf } from '#shared/model/roles.ts';
import { Email } from './auth.ts';
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
const FILTERABLE_ACTIONS: readonly string[] = [
  ...new Set([...AUDIT_ACTION_NAMES, ...permissionsOf('owner')]),
].sort();
/** Their first words: `production` filters every `production.*` action. */
const ACTION_WORDS: ReadonlySet<string> = new Set(
  FILTERABLE_ACTIONS.map((action) => action.split('.')[0] ?? ''),
);
const ACTION_MESSAGE = `must be an action, or its first word for all of them (production = production.*): ${FILTERABLE_ACTIONS.join(', ')}`;

/** An action as the filter reads it: itself, or `<word>.*` for a word (given as `word` or `word.*`). */
function actionFilter(value: string): string | undefined {
  if (FILTERABLE_ACTIONS.includes(value)) return value;
  const word = value.endsWith('.*') ? value.slice(0, -2) : value;
  return ACTION_WORDS.has(word) ? `${word}.*` : undefined;
}

/** A user's id, a team token's id, or the platform's: anything else names no actor. */
const ACTOR_ID = /^((usr|key)_[0-9A-Za-z]{1,60}|platform)$/;

export const AuditEventsQuery = z
  .extend(PageQuery, {
    since: Instant('Only events at or after this time.'),
    until: Instant('Only events at or before this time.'),
    action: z
      .optional(
        z.pipe(
          z.string().check(
            atMost(64),
            z.refine((value: string) => actionFilter(value) !== undefined, ACTION_MESSAGE),
          ),
          z.transform((value: string) => actionFilter(value) ?? value),
        ),
      )
      .register(z.globalRegistry, {
        description: `Only events of this action, or of every action of its first word (\`production\` or \`production.*\`: every \`production.\` action): one of ${AUDIT_ACTION_NAMES.join(', ')}; a refusal's is what the refused request would have done, or the permission it lacked where it changes nothing (e.g. \`audit.read\`).`,
        examples: ['production.promoted', 'production'],
        // The document shows what a client sends (a string); the transform is the filter's reading.
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          for (const key of Object.keys(jsonSchema))
            if (key !== 'description' && key !== 'examples') delete jsonSchema[key];
          Object.assign(jsonSchema, { type: 'string', maxLength: 64 });
        },
      }),
    actorId: z
      .optional(
        z
          .string()
          .check(
            atMost(ID_MAX_LENGTH),
            z.regex(ACTOR_ID, 'must be a user id (usr_…), a team token id (key_…) or platform'),
          ),
      )
      .register(z.globalRegistry, {
        description: 'Only events of this actor: a user id, a team token id, or `platform`.',
        examples: ['usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y'],
      }),
    actorEmail: z.optional(Email).register(z.globalRegistry, {
      description:
        'Only events of the user with this email (trimmed and lower-cased), also one who has left the team. Not with `actorId`.',
      examples: ['ada@example.com'],
    }),
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
    z.refine((query) => query.actorId === undefined || query.actorEmail === undefined, {
      message: 'give actorId or actorEmail, not both',
      path: ['actorEmail'],
    }),
  );

export type AuditEventsFilter = z.output<typeof AuditEventsQuery>;
