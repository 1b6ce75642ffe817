import * as z from 'zod/mini';
import { PageQuery } from '#shared/schemas/page-query.ts';

// The query that pages or follows a deployment's log, apart from what a build appends
// (deployment-logs.ts): a module of registered schemas is bundled whole, and the reader's function has
// no use for the appended lines' schemas (nor for the timestamp format they check, 3 KB of zod).

/** How the document shows a sequence number in the query: the number it is. */
const asSequence = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void => {
  delete jsonSchema.pattern;
  Object.assign(jsonSchema, { type: 'integer', minimum: 0 });
};

const Sequence = z.pipe(
  z.string().check(z.regex(/^[0-9]{1,9}$/, 'must be a whole number of at least 0')),
  z.transform((value: string) => Number(value)),
);

/** `?limit=&cursor=&since=&follow=` on a deployment's log. */
export const LogQuery = z.extend(PageQuery, {
  since: z.optional(Sequence).register(z.globalRegistry, {
    description:
      'Only lines after this sequence number (exclusive). On a stream, `Last-Event-ID` wins over it.',
    override: asSequence,
  }),
  follow: z.optional(z.enum(['1', 'true', '0', 'false'])).register(z.globalRegistry, {
    description:
      '`1` (or `true`) answers `text/event-stream`, as `Accept: text/event-stream` does: the stored lines, then new ones as they come.',
  }),
});

export type LogQueryInput = z.output<typeof LogQuery>;

/** The header a reconnecting event stream sends (browsers' EventSource sends it by itself). */
export const LogStreamHeaders = z.object({
  'Last-Event-ID': z.optional(Sequence).register(z.globalRegistry, {
    description:
      'On a stream: the `id` of the last event received (a line number). The stream resumes after it: nothing missed, nothing twice. Wins over `since`.',
    override: asSequence,
  }),
});
