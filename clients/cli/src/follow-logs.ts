import { setTimeout as sleep } from 'node:timers/promises';
import { type PlatformClient, PlatformError } from '@platform-api/client';

// `platform logs <id> --follow`: a deployment's build log as the server streams it
// (text/event-stream), printed as the lines come, until the deployment is terminal. A stream the
// server ends to be reconnected (`event: reconnect`, after 14 minutes), or one that drops, is opened
// again with Last-Event-ID: the server goes on after the last line printed, so nothing is missed or
// printed twice.

export interface LogLine {
  seq: number;
  at: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

interface ServerEvent {
  event: string;
  id?: string;
  data: string;
}

/** How often a stream that dropped is opened again before giving up, and how long between. */
const RECONNECTS = 5;
const RECONNECT_MS = 1000;

/** The events of one response as they arrive (blocks ending in a blank line; comments skipped). */
async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      const event = fields.get('event');
      if (event)
        yield {
          event,
          data: fields.get('data') ?? '',
          ...(fields.has('id') ? { id: fields.get('id') } : {}),
        };
    }
  }
}

const logsUrl = (client: PlatformClient, id: string) =>
  `${client.baseUrl}/deployments/${encodeURIComponent(id)}/logs`;

/** An answer of 400 or above as the SDK's error, so that the CLI reports it as any other call's. */
async function failure(response: Response): Promise<PlatformError> {
  const text = await response.text();
  let body: { error: string; message?: string };
  try {
    body = JSON.parse(text) as { error: string; message?: string };
  } catch {
    body = { error: 'http_error', message: text.slice(0, 200) };
  }
  return new PlatformError(response.status, body, response.headers.get('x-request-id') ?? undefined);
}

/**
 * Every stored line after `since`, oldest first, a page at a time (as `logs.listForDeployment` of the
 * SDK reads them; called directly here, beside the stream, with the same key and address).
 */
export async function readLogs(
  client: PlatformClient,
  id: string,
  since: number,
  limit: number,
): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : { since: String(since) }) });
    const response = await fetch(`${logsUrl(client, id)}?${query}`, {
      headers: { authorization: `Bearer ${client.apiKey ?? ''}` },
    });
    if (!response.ok) throw await failure(response);
    const page = (await response.json()) as { lines: LogLine[]; nextCursor: string | null };
    lines.push(...page.lines);
    cursor = page.nextCursor;
  } while (cursor && lines.length < limit);
  return lines.slice(0, limit);
}

/** Opens the stream after line `after`; an error answer becomes the SDK's error, as any other call's. */
async function open(client: PlatformClient, id: string, after: number): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(logsUrl(client, id), {
    headers: {
      authorization: `Bearer ${client.apiKey ?? ''}`,
      accept: 'text/event-stream',
      ...(after > 0 ? { 'last-event-id': String(after) } : {}),
    },
  });
  if (!response.ok || !response.body) throw await failure(response);
  return response.body;
}

/**
 * Follows the log from line `since` (exclusive), calling `print` for each line once and in order;
 * the deployment's final status once the server says the log is complete.
 */
export async function followLogs(
  client: PlatformClient,
  id: string,
  since: number,
  print: (line: LogLine) => void,
): Promise<string> {
  let after = since;
  for (let failures = 0; ; ) {
    let body: ReadableStream<Uint8Array>;
    try {
      body = await open(client, id, after);
    } catch (error) {
      // An answer of the API (404, 401, ...) is final; a network failure is tried again.
      if (error instanceof PlatformError || ++failures > RECONNECTS) throw error;
      await sleep(RECONNECT_MS);
      continue;
    }
    try {
      for await (const event of serverEvents(body)) {
        if (event.event === 'log') {
          const line = JSON.parse(event.data) as LogLine;
          if (line.seq > after) {
            print(line);
            after = line.seq;
          }
        } else if (event.event === 'end') {
          return (JSON.parse(event.data) as { status: string }).status;
        }
        failures = 0;
      }
    } catch (error) {
      if (++failures > RECONNECTS) throw error;
    }
    // The server ended the stream to be reconnected, or it dropped: go on after the last line.
    await sleep(failures > 0 ? RECONNECT_MS : 0);
  }
}
