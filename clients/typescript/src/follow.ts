import { errorOf, PlatformError } from './errors.ts';
import type { components } from './generated/openapi.ts';
import { backoff, retryAfterMs, sleep } from './retry.ts';

// `client.deployments.follow(id)`: a build's log as the server streams it (`GET /deployments/{id}/logs`
// with `Accept: text/event-stream`), as an async iterable of plain events. The server ends a stream
// after 14 minutes with `event: reconnect`, and any connection may drop: either way the stream is
// opened again with `Last-Event-ID` (the last line's number), and the server goes on after it, so
// every line comes once, in order. Only fetch and web streams: Node, Deno, Bun and browsers alike.

type Status = components['schemas']['Deployment']['status'];
type LogLine = components['schemas']['LogLine'];

/** One event of a followed build. */
export type FollowEvent =
  /** The deployment's status: on connect, then at each change (`at`: when it entered it). */
  | { type: 'status'; status: Status; at: string }
  /** One line of the build log, each once and in order (`seq` 1, 2, 3, …). */
  | ({ type: 'log' } & LogLine)
  /** The deployment is terminal and every line was sent: the last event. */
  | { type: 'end'; status: Status };

export interface FollowOptions {
  /** Start after this line (exclusive); from the first line unless given. */
  since?: number;
  /** Stops following: the iteration throws the signal's reason. */
  signal?: AbortSignal;
  /** The team the deployment is in, instead of the client's `teamId`. */
  teamId?: string;
}

/** What follow needs of the client: one request, with its key, that may be aborted. */
export type Open = (lastEventId: number, signal?: AbortSignal) => Promise<Response>;

/** Failed attempts in a row (a refused connection, a 5xx, a 429, a drop) before giving up. */
const ATTEMPTS = 6;

/** The server-sent events of one response, as `[event, data]`, parsed as the WHATWG format says. */
async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<[string, string]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const lines = (buffered + decoder.decode(value, { stream: true })).split(/\r\n|\r|\n/);
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield [event || 'message', data.join('\n')];
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
      }
    }
  } finally {
    // Stopped early (the caller broke out, or aborted): let the connection go.
    reader.cancel().catch(() => {});
  }
}

/** Follows a build from `options.since`, reconnecting after the last line received (see above). */
export async function* follow(open: Open, options: FollowOptions = {}): AsyncGenerator<FollowEvent, void> {
  const { signal } = options;
  let after = options.since ?? 0;
  let status: Status | undefined;
  for (let failures = 0; ; ) {
    let wait = 0;
    try {
      const response = await open(after, signal);
      const type = response.headers.get('content-type') ?? '';
      if (response.status === 429 || response.status >= 500) {
        wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(failures);
        const error = await errorOf(response);
        if (++failures >= ATTEMPTS) throw error;
      } else if (!response.ok) {
        throw await errorOf(response);
      } else if (!response.body || !type.startsWith('text/event-stream')) {
        await response.body?.cancel();
        throw new PlatformError(response.status, {
          error: 'http_error',
          message: `Expected text/event-stream, got ${type || 'no body'}`,
        });
      } else {
        let reconnect = false;
        for await (const [name, data] of serverEvents(response.body)) {
          failures = 0;
          const event = JSON.parse(data) as LogLine & { status: Status };
          if (name === 'log' && event.seq > after) {
            after = event.seq;
            yield { type: 'log', seq: event.seq, at: event.at, stream: event.stream, text: event.text };
          } else if (name === 'status' && event.status !== status) {
            status = event.status;
            yield { type: 'status', status: event.status, at: event.at };
          } else if (name === 'end') {
            yield { type: 'end', status: event.status };
            return;
          } else if (name === 'reconnect') {
            reconnect = true;
            break;
          }
        }
        // Ended by the server to be reconnected (at once), or dropped without its end (after a pause).
        if (!reconnect) throw new TypeError('The event stream ended before its end event');
      }
    } catch (error) {
      // An answer of the API (a 4xx, or a 429 or 5xx too many times) is final; so is an abort.
      if (error instanceof PlatformError || signal?.aborted || ++failures >= ATTEMPTS) throw error;
      wait = backoff(failures - 1);
    }
    await sleep(wait, signal);
  }
}
