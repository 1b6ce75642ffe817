import * as z from 'zod/mini';
import { LOG_STREAMS } from '#shared/model/deployments/logs.ts';
import { NextCursor, Timestamp } from '#shared/schemas/resources.ts';

// A deployment's build log as the API answers it. Like resources.ts, only the document imports this
// module at run time: the functions that append and read logs bundle deployment-logs.ts only.

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

/** The event stream, as the document describes it (its text is written by shared/http/answers/event-stream.ts). */
export const LogEventStream = z.string().register(z.globalRegistry, {
  id: 'LogEventStream',
  description: [
    'Server-sent events (`text/event-stream`), each `data` one line of JSON:',
    "- `event: status`, `data: {status, at}`: the deployment's status on connect (a terminal one after the lines instead), then each new status the server sees (`at`: when it entered it). The server reads the status once a second, so a status held for less than that may be skipped; `GET /deployments/{id}/events` lists every one;",
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
