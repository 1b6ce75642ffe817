import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusalOf, type TargetPolicy, urlRefusalOf } from './targets.ts';

// One POST to a receiver, with the outbound rules of a webhook sender: the address checked when
// the socket connects (shared/webhooks/targets.ts), no redirects followed (node:http never does),
// the whole exchange bounded by a timeout, and at most a few bytes of the answer read, since
// nothing in it matters but its status.

/** A 2xx within this long is a success; anything slower is a failure and will be retried. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer before the connection is closed. */
export const MAX_RESPONSE_BYTES = 4 * 1024;

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  policy: TargetPolicy;
  timeoutMs?: number;
}

export type SendResult =
  | { ok: true; statusCode: number; durationMs: number }
  | { ok: false; statusCode: number | null; error: string | null; durationMs: number };

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}

/** POSTs the body; resolves with the status or why there was none. Never throws. */
export function sendWebhook(outbound: OutboundRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(outbound.url);
  const refusal = urlRefusalOf(url, outbound.policy);
  if (refusal !== undefined) {
    return Promise.resolve({ ok: false, statusCode: null, error: `refused: ${refusal}`, durationMs: 0 });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address never reaches `lookup`: it was checked above, and is checked again here so the
  // rule reads in one place.
  if (isIP(host) !== 0 && refusalOf(host, outbound.policy) !== undefined) {
    return Promise.resolve({ ok: false, statusCode: null, error: 'refused', durationMs: 0 });
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = send(url, {
      method: 'POST',
      headers: {
        ...outbound.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(outbound.body)),
        'user-agent': 'platform-webhooks/1',
      },
      lookup: guardedLookup(outbound.policy),
      // A fresh connection per delivery: a pooled socket would skip the lookup, and with it the check.
      agent: false,
    });
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          statusCode: null,
          error: `timeout: no answer within ${outbound.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms`,
          durationMs: elapsed(),
        }),
      outbound.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    );
    request.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      let read = 0;
      const done = () => {
        const ok = statusCode >= 200 && statusCode < 300;
        finish(
          ok
            ? { ok, statusCode, durationMs: elapsed() }
            : { ok, statusCode, error: null, durationMs: elapsed() },
        );
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.byteLength;
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.on('error', (error) =>
      finish({ ok: false, statusCode: null, error: describeFailure(error), durationMs: elapsed() }),
    );
    request.end(outbound.body);
  });
}
