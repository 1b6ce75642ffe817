import * as z from 'zod/mini';
import {
  LOG_STREAMS,
  MAX_LINE_BYTES,
  MAX_LINES_PER_APPEND,
  MAX_LINES_PER_DEPLOYMENT,
  MAX_LOG_BYTES,
  utf8Bytes,
} from '#shared/model/deployment-logs.ts';
import { PageQuery } from './common.ts';
import { Timestamp } from './scalars.ts';

// A deployment's build log: what a build appends and the query that pages or follows it (what a reader
// gets back is in deployment-log-resources.ts, which only the document loads). The limits are the
// model's (shared/model/deployment-logs.ts).

const LineText = z
  .string()
  .check(
    z.refine(
      (text: string) => utf8Bytes(text) <= MAX_LINE_BYTES,
      `must be at most ${MAX_LINE_BYTES} bytes of UTF-8`,
    ),
  )
  .register(z.globalRegistry, {
    description: `The line, at most ${MAX_LINE_BYTES} bytes of UTF-8. Values of the project's secret variables (4 characters or more) are replaced by \`***\` before it is stored.`,
  });

export const AppendLogLine = z
  .strictObject({
    text: LineText,
    stream: z.optional(z.enum(LOG_STREAMS)).register(z.globalRegistry, {
      description: '`stdout` unless given.',
    }),
    at: z.optional(Timestamp).register(z.globalRegistry, {
      description: "When the build wrote it; the server's time of the append unless given.",
    }),
  })
  .register(z.globalRegistry, { id: 'AppendLogLine' });

export const AppendLogsBody = z
  .strictObject({
    lines: z
      .array(AppendLogLine)
      .check(
        z.minLength(1, 'must hold at least one line'),
        z.maxLength(MAX_LINES_PER_APPEND, `must hold at most ${MAX_LINES_PER_APPEND} lines`),
      ),
  })
  .register(z.globalRegistry, {
    id: 'AppendLogsBody',
    description: `Lines a build wrote, oldest first: 1 to ${MAX_LINES_PER_APPEND} per request, within the 64 KiB body limit. A deployment holds at most ${MAX_LINES_PER_DEPLOYMENT} lines or ${MAX_LOG_BYTES / 1024 / 1024} MiB of text (409 past either). Unknown fields are refused (400 naming the field, e.g. \`lines.3.text\`).`,
    examples: [{ lines: [{ text: '> npm run build' }, { text: 'warning: large bundle', stream: 'stderr' }] }],
  });

export type AppendLogsInput = z.output<typeof AppendLogsBody>;

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
