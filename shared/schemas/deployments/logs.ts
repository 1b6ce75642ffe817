import * as z from 'zod/mini';
import {
  LOG_STREAMS,
  MAX_LINE_BYTES,
  MAX_LINES_PER_APPEND,
  MAX_LINES_PER_DEPLOYMENT,
  MAX_LOG_BYTES,
  utf8Bytes,
} from '#shared/model/deployments/logs.ts';
import { Timestamp } from '#shared/schemas/scalars.ts';

// What a build appends to a deployment's log (the query that pages or follows it is in
// deployment-log-query.ts, what a reader gets back in deployment-log-resources.ts, which only the
// document loads). The limits are the model's (shared/model/deployments/logs.ts).

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
