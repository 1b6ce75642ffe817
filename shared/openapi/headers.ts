import * as z from 'zod/mini';
import type { ReplyHeader } from '#shared/routes.ts';

// The response headers the document names, each once (rendered as components.headers), and which of
// them a response carries: from the chain (X-Request-Id on every function's answer, the rate-limit
// trio and the IETF pair on every answer of a rate-limited route, Retry-After on a 429) or from the reply itself.

const header = (id: string, schema: z.ZodMiniType, description: string, example: string | number) =>
  schema.register(z.globalRegistry, { header: { id }, description, examples: [example] });

const epochSeconds = () => z.int().check(z.minimum(0));

const RequestId = header(
  'X-Request-Id',
  z.string(),
  "Identifies this request in the service's logs (API Gateway's request id): quote it when reporting a problem.",
  'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
);
const RateLimitLimit = header(
  'X-RateLimit-Limit',
  epochSeconds(),
  'Requests allowed in the current window (per API key; per source address for requests without a valid key and for /auth/*).',
  100,
);
const RateLimitRemaining = header(
  'X-RateLimit-Remaining',
  epochSeconds(),
  'Requests left in the current window, after this one. Refused requests are not counted.',
  99,
);
const RateLimitReset = header(
  'X-RateLimit-Reset',
  epochSeconds(),
  'When the current window ends, in UTC epoch seconds. Windows are fixed and aligned to multiples of their length.',
  1795338960,
);
const RateLimitPolicy = header(
  'RateLimit-Policy',
  z.string(),
  'The IETF field (draft-ietf-httpapi-ratelimit-headers-11, a structured-field list): the policy `"default"` with its quota `q` (the same number as X-RateLimit-Limit) per window of `w` seconds.',
  '"default";q=100;w=60',
);
const RateLimitField = header(
  'RateLimit',
  z.string(),
  'The IETF field (draft-ietf-httpapi-ratelimit-headers-11): what is left of the `"default"` policy\'s quota, `r` (as X-RateLimit-Remaining), and the seconds until its window ends, `t`.',
  '"default";r=99;t=17',
);
const RetryAfter = header(
  'Retry-After',
  z.int().check(z.minimum(1)),
  "Seconds to wait before retrying (the same as the body's `retryAfter`).",
  17,
);
const Location = header(
  'Location',
  z.string(),
  "The new resource's address: the path the client posted to, plus its id.",
  '/v1/projects/prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
);
const Allow = header('Allow', z.string(), 'The methods this path supports.', 'GET, POST');
const ContentSecurityPolicy = header(
  'Content-Security-Policy',
  z.string(),
  'The page loads scripts, styles and the document from this API only.',
  "default-src 'none'; script-src 'self'",
);

const WaitResult = header(
  'Wait-Result',
  z.enum(['reached', 'timeout']),
  '`reached`: the deployment is in one of the states waited for; `timeout`: the wait ended first, and the body is the deployment as it was then.',
  'reached',
);

const IdempotencyReplayed = header(
  'Idempotency-Replayed',
  z.literal('true'),
  'Present on an answer replayed for a retry with the same Idempotency-Key: the first answer, byte for byte.',
  'true',
);

/** The request header of the POSTs that may be retried safely. */
export const IdempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .optional(z.string().check(z.minLength(1), z.maxLength(255)))
    .register(z.globalRegistry, {
      description:
        'Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer (with `Idempotency-Replayed: true`) instead of running again; with another request it is a 422, and while the first still runs a 409. Keys are per user; 1 to 255 visible ASCII characters. Answers of 500 and above, and validation failures, are not kept.',
      examples: ['5f1c0c7e-3f4a-4b8e-9d0a-7a6b2c1d9e8f'],
    }),
});

const replyHeaders: Record<ReplyHeader, z.ZodMiniType> = {
  Location,
  'Content-Security-Policy': ContentSecurityPolicy,
  'Wait-Result': WaitResult,
};

/** Whether a response carries the rate-limit trio: always, sometimes (see below) or never. */
export type RateLimitHeaders = 'always' | 'unless-the-throttle-failed' | 'never';

/** The headers one response carries, as the zod object zod-openapi renders into header refs. */
export function responseHeaders(options: {
  rateLimit: RateLimitHeaders;
  status: number;
  allow?: boolean;
  reply?: readonly ReplyHeader[];
  /** An answer of a POST that takes an Idempotency-Key: a replay says so. */
  replayable?: boolean;
}) {
  // When the /auth/* throttle itself fails (the store is down), its 500 has no allowance to report:
  // there the trio is optional, rendered inline because a header component is either required or not.
  const rateLimit = {
    always: {
      'X-RateLimit-Limit': RateLimitLimit,
      'X-RateLimit-Remaining': RateLimitRemaining,
      'X-RateLimit-Reset': RateLimitReset,
      'RateLimit-Policy': RateLimitPolicy,
      RateLimit: RateLimitField,
    },
    'unless-the-throttle-failed': {
      'X-RateLimit-Limit': z.optional(RateLimitLimit),
      'X-RateLimit-Remaining': z.optional(RateLimitRemaining),
      'X-RateLimit-Reset': z.optional(RateLimitReset),
      'RateLimit-Policy': z.optional(RateLimitPolicy),
      RateLimit: z.optional(RateLimitField),
    },
    never: {},
  }[options.rateLimit];
  return z.object({
    'X-Request-Id': RequestId,
    ...rateLimit,
    ...(options.status === 429 ? { 'Retry-After': RetryAfter } : {}),
    ...(options.allow ? { Allow } : {}),
    ...Object.fromEntries((options.reply ?? []).map((name) => [name, replyHeaders[name]])),
    ...(options.replayable && options.status < 300
      ? { 'Idempotency-Replayed': z.optional(IdempotencyReplayed) }
      : {}),
  });
}
