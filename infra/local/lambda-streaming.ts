import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import {
  type HttpResponseMetadata,
  type LambdaStreamingRuntime,
  provideStreamingRuntime,
} from '#shared/http/answers/streaming.ts';

// A stand-in for the Lambda runtime's response streaming (the `awslambda` global), for the local
// gateway and the tests, and the gateway's side of it: the runtime writes a streaming function's
// status and headers as a JSON prelude followed by eight NUL bytes, then the body; API Gateway reads
// the prelude to answer with, and passes the body on as it comes. Both halves here do the same, so
// a streaming function runs locally on the bytes it writes in AWS.

const DELIMITER = Buffer.alloc(8);

export const streamingRuntimeStandIn: LambdaStreamingRuntime = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from(stream, metadata) {
      stream.write(Buffer.concat([Buffer.from(JSON.stringify(metadata), 'utf8'), DELIMITER]));
      return stream;
    },
  },
};

/** Puts the stand-in where the runtime's `awslambda` would be, unless a runtime is already there. */
export function installStreamingRuntime(): void {
  provideStreamingRuntime(streamingRuntimeStandIn);
}

/** Splits a streamed invocation's bytes into the prelude and the body that follows it. */
export function splitPrelude(bytes: Buffer): { metadata: HttpResponseMetadata; body: Buffer } | undefined {
  const end = bytes.indexOf(DELIMITER);
  if (end < 0) return undefined;
  return {
    metadata: JSON.parse(bytes.subarray(0, end).toString('utf8')) as HttpResponseMetadata,
    body: bytes.subarray(end + DELIMITER.length),
  };
}

/**
 * The stream a streaming function writes to, answering `res` as API Gateway would: the prelude
 * becomes the status and headers, everything after it the body, passed on as it comes. When the
 * client goes away the stream is destroyed, which ends the function's writing.
 */
export function responseStreamTo(res: ServerResponse): Writable {
  let pending: Buffer | undefined = Buffer.alloc(0);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      let body = chunk;
      if (pending) {
        const split = splitPrelude(Buffer.concat([pending, chunk]));
        if (!split) {
          pending = Buffer.concat([pending, chunk]);
          return done();
        }
        pending = undefined;
        res.writeHead(split.metadata.statusCode, split.metadata.headers);
        // Headers go out now, before any body: a client following a stream sees the answer begin.
        res.flushHeaders();
        body = split.body;
      }
      if (body.byteLength === 0 || res.write(body)) return done();
      res.once('drain', () => done());
    },
    final(done) {
      if (pending) {
        done(new Error('A streaming function ended without writing its status and headers'));
        return;
      }
      res.end(() => done());
    },
  });
  res.on('close', () => {
    if (!res.writableFinished) stream.destroy();
  });
  return stream;
}
