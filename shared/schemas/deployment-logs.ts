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
import { NextCursor, Timestamp } from './resources.ts';

// A deployment's build log: what a build appends, what a reader gets back, and the query that pages
// or follows it. The limits are the model's (shared/model/deployment-logs.ts).

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

export const LogLine = z
  .strictObject({
    seq: z.number().register(z.globalRegistry, {
      description:
        "The line's number: 1, 2, 3, … per deployment, in the order lines were accepted, without gaps.",
    }),
    at: Timestamp,
    stream: z.enum(LOG_STREAMS),
    text: z.string(),
  })
  .register(z.globalRegistry, {
    id: 'LogLine',
    description: 'One line of a build log, secrets masked.',
    examples: [{ seq: 1, at: '2026-11-22T09:16:05.000Z', stream: 'stdout', text: '> npm run build' }],
  });

export const LogLineList = z
  .strictObject({ lines: z.array(LogLine), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'LogLineList',
    description:
      'A page of log lines, oldest first. `nextCursor` is null once the page reaches the last line stored now; a build still running may add more (follow them with `?since=` or `Accept: text/event-stream`).',
  });

export const AppendedLogs = z
  .strictObject({
    firstSeq: z.number(),
    lastSeq: z.number(),
  })
  .register(z.globalRegistry, {
    id: 'AppendedLogs',
    description:
      'The sequence numbers the append gave its lines: `firstSeq` to `lastSeq`, in the order sent.',
    examples: [{ firstSeq: 41, lastSeq: 42 }],
  });

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

/** The event stream, as the document describes it (its text is written by shared/http/event-stream.ts). */
export const LogEventStream = z.string().register(z.globalRegistry, {
  id: 'LogEventStream',
  description: [
    'Server-sent events (`text/event-stream`), each `data` one line of JSON:',
    "- `event: status`, `data: {status, at}`: the deployment's status, on connect and at every change (`at`: when it entered it);",
    '- `event: log`, `id: <seq>`, `data: {seq, at, stream, text}` (a LogLine): every stored line after `since` or `Last-Event-ID`, oldest first, then each new one as it is appended;',
    '- `event: end`, `data: {status}`: the deployment is terminal and every line has been sent; the stream then ends;',
    "- `event: reconnect`, `data: {lastEventId}`: the stream ends itself before API Gateway's 15-minute limit (after 14 minutes); reconnect with `Last-Event-ID` (EventSource does) to go on, missing nothing and getting nothing twice;",
    '- `: keepalive`, a comment line after 15 s without an event, so that idle connections stay open.',
    'Errors found before the stream begins (401, 403, 404, 429) are answered as JSON, like any other.',
  ].join('\n'),
  examples: [
    'event: status\ndata: {"status":"building","at":"2026-11-22T09:16:05.000Z"}\n\nid: 1\nevent: log\ndata: {"seq":1,"at":"2026-11-22T09:16:05.120Z","stream":"stdout","text":"> npm run build"}\n\nevent: status\ndata: {"status":"ready","at":"2026-11-22T09:16:40.000Z"}\n\nevent: end\ndata: {"status":"ready"}\n\n',
  ],
});
