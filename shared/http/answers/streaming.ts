import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';
import type { Handler } from '#shared/http/endpoint.ts';
import type { ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { logError } from '#shared/runtime/log.ts';

// Lambda response streaming (API Gateway's `responseTransferMode: STREAM`, which invokes the function
// with InvokeWithResponseStream): the function gets a writable stream instead of returning a result,
// and writes the answer's status and headers first (the runtime's HttpResponseStream.from writes them
// as a JSON prelude followed by eight NUL bytes), then the body as it goes.
//
// The chain stays the one every function runs (shared/http/endpoint.ts, Middy in its standard mode):
// admission, input, errors, headers and the access line all happen before the first byte, and their
// result is written through the stream. Its body is either the usual string (a page of JSON, an
// error) or, for an event stream, the chunks of `events`, written as they come. Middy's own
// streaming mode would take over the chain's entry point, outside the request deadline and store
// timings that wrap it, so this adapter does the writing instead (its whole job).
//
// The access line and the request's metrics are the chain's, written before the first byte: a
// stream's lifetime and the reads it makes after that are in neither (docs/api.md counts them).
//
// The `awslambda` global exists only inside the Lambda runtime; the local gateway and the tests put
// a stand-in in its place (infra/local/lambda-streaming.ts) that writes the same bytes.

export interface HttpResponseMetadata {
  statusCode: number;
  headers: Record<string, string>;
}

/** What this service uses of the runtime's streaming interface. */
export interface LambdaStreamingRuntime {
  streamifyResponse<T>(handler: T): T;
  HttpResponseStream: { from(stream: Writable, metadata: HttpResponseMetadata): Writable };
}

/**
 * The runtime's global, where there is one (@types/aws-lambda declares it as always there). Its mere
 * presence proves nothing: the AWS SDK's invoke store puts an `awslambda` object of its own in any
 * process that loads it, Lambda or not.
 */
const globals = globalThis as unknown as { awslambda?: Partial<LambdaStreamingRuntime> };

const streamingRuntime = (): LambdaStreamingRuntime | undefined => {
  const found = globals.awslambda;
  return typeof found?.streamifyResponse === 'function' && found.HttpResponseStream
    ? (found as LambdaStreamingRuntime)
    : undefined;
};

/** Puts a stand-in's streaming where the runtime's would be, unless the runtime's is there. */
export function provideStreamingRuntime(standIn: LambdaStreamingRuntime): void {
  if (streamingRuntime()) return;
  globals.awslambda = Object.assign(globals.awslambda ?? {}, standIn);
}

const readers = new AsyncLocalStorage<AbortSignal>();

/**
 * Within a streaming function's request: a signal that aborts when its reader goes away (the response
 * stream closes before the answer ended), so that what produces the events can stop at once instead
 * of at its next write (a followed log gives its place back, shared/domain/deployments/log-follow.ts).
 */
export const readerGone = (): AbortSignal | undefined => readers.getStore();

/** A result whose body is written as it comes: the chunks of an event stream. */
export type StreamingResult = ProxyResult & { events?: AsyncIterable<string> };

/** A streaming function's entry point, as the runtime (or the local gateway) calls it. */
export type StreamingEntry = (event: ProxyEvent, responseStream: Writable, context: Context) => Promise<void>;

const runtime = (): LambdaStreamingRuntime => {
  const found = streamingRuntime();
  if (!found) throw new Error('Response streaming needs the Lambda runtime (or the local gateway stand-in)');
  return found;
};

/**
 * Writes a chunk, waiting while the stream is full; false once the reader has gone. The wait's two
 * listeners go when it ends, whichever event came: a long stream waits thousands of times.
 */
async function write(out: Writable, chunk: string | Buffer): Promise<boolean> {
  if (out.destroyed || out.writableEnded) return false;
  if (out.write(chunk)) return true;
  const waited = new AbortController();
  const { signal } = waited;
  try {
    return await Promise.race([
      once(out, 'drain', { signal }).then(() => true),
      once(out, 'close', { signal }).then(() => false),
    ]);
  } finally {
    waited.abort();
  }
}

/** The chain's headers as one map: a header with several values is sent once, comma-joined. */
function headersOf(result: ProxyResult): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String).join(', ');
  return headers;
}

/**
 * A function's entry point that answers through the response stream: the chain's result, its
 * `events` written one chunk at a time until they end or the reader goes away (which stops them).
 */
export function streamedEndpoint(handler: Handler): StreamingEntry {
  const entry: StreamingEntry = async (event, responseStream, context) => {
    const gone = new AbortController();
    responseStream.once('close', () => gone.abort());
    const result: StreamingResult = await readers.run(gone.signal, () => handler(event, context));
    const out = runtime().HttpResponseStream.from(responseStream, {
      statusCode: result.statusCode,
      headers: headersOf(result),
    });
    // A reader that went away fails the next write: it ends the events, not the function.
    out.on('error', () => undefined);
    if (result.events) {
      try {
        for await (const chunk of result.events) if (!(await write(out, chunk))) break;
      } catch (error) {
        // The answer has begun: all that is left is to end it, so the client sees the stream end
        // (and reconnects with Last-Event-ID) instead of waiting on a stream nobody writes to.
        logError(
          'streamed answer: its events failed; ending the stream',
          { requestId: result.headers?.['X-Request-Id'] },
          error,
        );
      }
    } else if (result.body) {
      await write(out, result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    }
    if (!out.destroyed && !out.writableEnded) await new Promise<void>((resolve) => out.end(resolve));
  };
  // The runtime marks the handler as streaming; without it (a test importing the module) it is
  // returned as it is, and fails only if called without a stand-in.
  const found = streamingRuntime();
  return found ? found.streamifyResponse(entry) : entry;
}
