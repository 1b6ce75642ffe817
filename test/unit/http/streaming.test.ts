import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { installStreamingRuntime, splitPrelude } from '#infra/local/lambda-streaming.ts';
import type { FollowEvent } from '#shared/domain/deployments/log-follow.ts';
import { eventStream, eventText, wantsEventStream } from '#shared/http/answers/event-stream.ts';
import { streamedEndpoint } from '#shared/http/answers/streaming.ts';
import type { ProxyEvent } from '#shared/http/types.ts';

// The streaming adapter (a chain's result written through Lambda's response stream) with the stand-in
// for the runtime, and the event stream's text.

installStreamingRuntime();

const event = {} as ProxyEvent;
const context = {} as Context;

/** A response stream that keeps what is written; `failAfter` writes, it goes away as a client does. */
function sink(failAfter = Number.POSITIVE_INFINITY) {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      if (chunks.length > failAfter) {
        stream.destroy();
        return;
      }
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

describe('streamedEndpoint', () => {
  it('writes the prelude (status and headers), eight NUL bytes, then a JSON body, and ends', async () => {
    const entry = streamedEndpoint(async () => ({
      statusCode: 404,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      multiValueHeaders: { Vary: ['Accept', 'Authorization'] },
      body: '{"error":"not_found"}',
    }));
    const { stream, bytes } = sink();
    await entry(event, stream, context);
    expect(stream.writableEnded).toBe(true);
    const split = splitPrelude(bytes());
    expect(split?.metadata).toEqual({
      statusCode: 404,
      headers: { 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept, Authorization' },
    });
    expect(split?.body.toString('utf8')).toBe('{"error":"not_found"}');
  });

  it('writes the events one by one after the prelude', async () => {
    async function* events() {
      yield 'event: a\n\n';
      yield 'event: b\n\n';
    }
    const entry = streamedEndpoint(async () => ({
      statusCode: 200,
      headers: {},
      body: '',
      events: events(),
    }));
    const { stream, bytes } = sink();
    await entry(event, stream, context);
    expect(splitPrelude(bytes())?.body.toString('utf8')).toBe('event: a\n\nevent: b\n\n');
  });

  it('stops the events when the reader goes away, ending their generator', async () => {
    let produced = 0;
    let finished = false;
    async function* endless() {
      try {
        for (;;) {
          produced++;
          yield `event: n\ndata: ${produced}\n\n`;
        }
      } finally {
        finished = true;
      }
    }
    const entry = streamedEndpoint(async () => ({
      statusCode: 200,
      headers: {},
      body: '',
      events: endless(),
    }));
    // The prelude, then three events, then the client is gone.
    await entry(event, sink(4).stream, context);
    expect(finished).toBe(true);
    expect(produced).toBeLessThan(10);
  });
  it('leaves no listener behind on the stream after each wait for it to drain', async () => {
    // A reader slower than the writer: each chunk fills the stream, and the writer waits for `drain`.
    const slow = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        setImmediate(done);
      },
    });
    const listeners: number[] = [];
    async function* many() {
      for (let n = 0; n < 20; n++) {
        listeners.push(slow.listenerCount('close') + slow.listenerCount('drain'));
        yield `event: n\ndata: ${n}\n\n`;
      }
    }
    const entry = streamedEndpoint(async () => ({ statusCode: 200, headers: {}, body: '', events: many() }));
    await entry(event, slow, context);
    // As many as before the first wait: every wait took its own listeners away again.
    expect(new Set(listeners.slice(1))).toEqual(new Set([listeners[0]]));
  });
});

describe('streamedEndpoint, when the events fail after the answer began', () => {
  it('logs the failure and ends the stream, so that the client reconnects instead of waiting', async () => {
    async function* failing() {
      yield 'event: a\n\n';
      throw new Error('the store went away');
    }
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const entry = streamedEndpoint(async () => ({
        statusCode: 200,
        headers: {},
        body: '',
        events: failing(),
      }));
      const { stream, bytes } = sink();
      await entry(event, stream, context);
      expect(stream.writableEnded).toBe(true);
      expect(splitPrelude(bytes())?.body.toString('utf8')).toBe('event: a\n\n');
      expect(String(logged.mock.calls[0]?.[0])).toContain('the store went away');
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the event stream', () => {
  const line = { seq: 7, at: '2026-11-22T09:16:05.000Z', stream: 'stderr' as const, text: 'a\nb "c"' };

  it('writes each event as server-sent events, data as one line of JSON, an id only on lines', async () => {
    const events: FollowEvent[] = [
      { type: 'status', status: 'building', at: '2026-11-22T09:16:04.000Z' },
      { type: 'log', line },
      { type: 'keepalive' },
      { type: 'reconnect', lastEventId: 7 },
      { type: 'end', status: 'ready' },
    ];
    expect(events.map(eventText)).toEqual([
      'event: status\ndata: {"status":"building","at":"2026-11-22T09:16:04.000Z"}\n\n',
      'id: 7\nevent: log\ndata: {"seq":7,"at":"2026-11-22T09:16:05.000Z","stream":"stderr","text":"a\\nb \\"c\\""}\n\n',
      ': keepalive\n\n',
      'event: reconnect\ndata: {"lastEventId":7}\n\n',
      'event: end\ndata: {"status":"ready"}\n\n',
    ]);
    async function* source() {
      yield* events.slice(0, 2);
    }
    const written: string[] = [];
    for await (const chunk of eventStream(source())) written.push(chunk);
    expect(written).toEqual(events.slice(0, 2).map(eventText));
  });

  it('is asked for by ?follow=1|true or by Accept, and ?follow=0 declines it', () => {
    expect(wantsEventStream('1', undefined)).toBe(true);
    expect(wantsEventStream('true', 'application/json')).toBe(true);
    expect(wantsEventStream(undefined, 'text/event-stream')).toBe(true);
    expect(wantsEventStream(undefined, 'application/json, Text/Event-Stream;q=0.5')).toBe(true);
    expect(wantsEventStream('0', 'text/event-stream')).toBe(false);
    expect(wantsEventStream(undefined, undefined)).toBe(false);
    expect(wantsEventStream(undefined, '*/*')).toBe(false);
  });
});
