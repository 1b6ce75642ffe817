import * as z from 'zod/mini';
import { errorCatalogue, fixedMessageOf, type MessageErrorCode } from '#shared/model/error-catalogue.ts';

// The error bodies of the contract. The error middleware is typed from these; only the OpenAPI
// document imports this module at run time, to render one component per code (`errorBodyOf`).

const messageCodes = Object.keys(errorCatalogue).filter(
  (code): code is MessageErrorCode => code !== 'rate_limit_exceeded',
);

/** `{error, message, field?}`: every error but the 429. */
export const ErrorBody = z.strictObject({
  error: z.enum(messageCodes),
  message: z.string(),
  field: z.optional(z.string()),
});
export type ErrorBody = z.output<typeof ErrorBody>;

/** The 429 body: the spec gives it no message. */
export const RateLimitedBody = z
  .strictObject({
    error: z.literal('rate_limit_exceeded'),
    retryAfter: z.int().check(z.minimum(1)),
  })
  .register(z.globalRegistry, {
    id: 'RateLimitExceeded',
    description: 'Too many requests: wait `retryAfter` seconds (the `Retry-After` header says the same).',
    examples: [{ error: 'rate_limit_exceeded', retryAfter: 17 }],
  });
export type RateLimitedBody = z.output<typeof RateLimitedBody>;

/**
 * The body of one code, as precisely as the catalogue knows it: its code, its fixed message when it
 * has one, and `field` on validation errors, which always name the bad input.
 */
export function errorBodyOf(code: MessageErrorCode) {
  const fixed = fixedMessageOf(code);
  return z.strictObject({
    error: z.literal(code),
    message: fixed === undefined ? z.string() : z.literal(fixed),
    ...(code === 'validation_error' ? { field: z.string() } : {}),
  });
}
