import * as z from 'zod/mini';
import { AUDIT_ACTION_NAMES } from '#shared/model/audit.ts';
import { atMost } from './common.ts';
import { PageQuery } from './page-query.ts';

// The audit log's query: `?since=&until=&action=&actorId=&projectId=&outcome=` with the list's
// `limit` and `cursor` (../shared/CONTRACT.md, "The audit log").

const ISO_MESSAGE = 'must be an ISO-8601 date and time, e.g. 2026-11-25T09:15:00Z';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A point in time as the client writes it, read as epoch milliseconds. */
const Instant = (description: string) =>
  z.optional(
    z
      .pipe(
        z.string().check(
          atMost(40, ISO_MESSAGE),
          z.refine(
            (value: string) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
            ISO_MESSAGE,
          ),
        ),
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

const Word = (description: string, example: string) =>
  z.optional(z.string().check(atMost(64))).register(z.globalRegistry, { description, examples: [example] });

export const AuditEventsQuery = z.extend(PageQuery, {
  since: Instant('Only events at or after this time.'),
  until: Instant('Only events at or before this time.'),
  action: z.optional(z.string().check(atMost(64))).register(z.globalRegistry, {
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
});

export type AuditEventsFilter = z.output<typeof AuditEventsQuery>;
