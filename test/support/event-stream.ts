import { assertDocumented } from './contract.ts';

// A small text/event-stream client for the tests: the events of a response as they arrive, parsed as
// the WHATWG server-sent events format says (blocks ending in a blank line; `field: value` lines;
// lines starting with `:` are comments).

export interface ServerEvent {
  event?: string;
  id?: string;
  data?: string;
  /** A comment block's text (`: keepalive`). */
  comment?: string;
}

export interface EventStream {
  status: number;
  headers: Headers;
  /** The events in order, ending when the server ends the stream. */
  events: AsyncGenerator<ServerEvent>;
  /** Goes away mid-stream, as a client that loses its connection. */
  close(): void;
}

function parseBlock(block: string): ServerEvent {
  const parsed: ServerEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      parsed.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event' || field === 'id' || field === 'data') parsed[field] = value;
  }
  return parsed;
}

async function* eventsOf(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (block !== '') yield parseBlock(block);
      }
    }
  } catch (error) {
    // Closed by the test itself: the stream simply ends.
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  } finally {
    reader.releaseLock();
  }
}

/** Opens a stream; the answer's status and headers are checked against the document at once. */
export async function openEventStream(
  url: string,
  options: { key: string; headers?: Record<string, string> },
): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${options.key}`, Accept: 'text/event-stream', ...options.headers },
    signal: controller.signal,
  });
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  // The body of a stream is checked event by event by the test; an answer that is not one, whole.
  const text = isStream ? '' : await response.text();
  assertDocumented({ method: 'GET', url, status: response.status, headers: response.headers, text });
  const empty = async function* (): AsyncGenerator<ServerEvent> {};
  return {
    status: response.status,
    headers: response.headers,
    events: isStream && response.body ? eventsOf(response.body) : empty(),
    close: () => controller.abort(),
  };
}

/** Collects events until `stop` says so (inclusive) or the stream ends. */
export async function collect(
  events: AsyncGenerator<ServerEvent>,
  stop: (event: ServerEvent) => boolean = () => false,
): Promise<ServerEvent[]> {
  const seen: ServerEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (stop(event)) break;
  }
  return seen;
}

/**
 * Follows a stream to its `end`, reconnecting as EventSource does whenever the server asks it to
 * (`event: reconnect`, carrying the last id sent, given back as Last-Event-ID): on a slow machine a
 * build can outlast one connection's lifetime. The events of every connection in order, without
 * the `reconnect` events and without the status that a new connection repeats when it has not
 * changed; the first answer's headers; and how many connections it took.
 */
export async function followToEnd(
  url: string,
  options: { key: string; headers?: Record<string, string> },
): Promise<{ events: ServerEvent[]; headers: Headers; connections: number }> {
  const events: ServerEvent[] = [];
  let first: Headers | undefined;
  let headers = options.headers ?? {};
  let lastStatus: string | undefined;
  for (let connections = 1; ; connections++) {
    const stream = await openEventStream(url, { key: options.key, headers });
    if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}`);
    first ??= stream.headers;
    const received = await collect(stream.events);
    for (const [index, event] of received.entries()) {
      if (event.event === 'reconnect') continue;
      if (event.event === 'status') {
        if (index === 0 && connections > 1 && event.data !== undefined && event.data === lastStatus) continue;
        lastStatus = event.data;
      }
      events.push(event);
    }
    const last = received.at(-1);
    if (last?.event !== 'reconnect') return { events, headers: first, connections };
    const { lastEventId } = JSON.parse(last.data ?? '{}') as { lastEventId: number };
    headers = { ...options.headers, 'Last-Event-ID': String(lastEventId) };
  }
}
