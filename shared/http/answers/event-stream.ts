import type { FollowEvent } from '#shared/domain/deployments/log-follow.ts';

// A followed log as text/event-stream (the WHATWG server-sent events format): each event is lines of
// `field: value` ending with a blank line. `data` is one line of JSON (JSON escapes every line break
// a log line may hold), and only `log` events carry an `id` (its sequence number), which a client's
// Last-Event-ID sends back on reconnect. A keepalive is a comment line, which clients ignore.

export const EVENT_STREAM_TYPE = 'text/event-stream';

const event = (name: string, data: unknown, id?: number): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** One event as the text written to the stream. */
export function eventText(follow: FollowEvent): string {
  switch (follow.type) {
    case 'log':
      return event('log', follow.line, follow.line.seq);
    case 'status':
      return event('status', { status: follow.status, at: follow.at });
    case 'end':
      return event('end', { status: follow.status });
    case 'reconnect':
      return event('reconnect', { lastEventId: follow.lastEventId });
    case 'keepalive':
      return ': keepalive\n\n';
  }
}

/** The events as the stream's text, one chunk per event. */
export async function* eventStream(events: AsyncIterable<FollowEvent>): AsyncGenerator<string> {
  for await (const follow of events) yield eventText(follow);
}

/** Whether a request asks for the event stream: `?follow=1|true`, or Accept naming text/event-stream. */
export function wantsEventStream(follow: string | undefined, accept: string | undefined): boolean {
  if (follow === '1' || follow === 'true') return true;
  if (follow === '0' || follow === 'false') return false;
  return (accept ?? '').toLowerCase().includes(EVENT_STREAM_TYPE);
}
