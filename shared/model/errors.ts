import type { ErrorCode } from './error-catalogue.ts';
import type { RateLimitState } from './rate-limit.ts';

// Typed failures thrown where they arise. Each carries its code from the error catalogue, and the
// catalogue gives the code its status: shared/http/answers/error-response.ts answers any of them by lookup.
// Anything thrown that is not an ApiError is unexpected and answers the fixed 500.

/** A failure the contract names. */
export abstract class ApiError extends Error {
  abstract readonly code: Exclude<ErrorCode, 'internal_error' | 'bad_request'>;
  /** Dotted path of the offending input (validation errors). */
  readonly field?: string;
  /** Headers the answer carries because of this failure (`Allow`, `Retry-After`). */
  headers(): Record<string, string> {
    return {};
  }
}

export class ValidationError extends ApiError {
  override name = 'ValidationError';
  override readonly code = 'validation_error';
  /** Dotted path of the offending input, e.g. `projectId`, `body`, `cursor`. */
  override readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

export class UnauthorizedError extends ApiError {
  override name = 'UnauthorizedError';
  override readonly code = 'unauthorized';
}

export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
  override readonly code = 'forbidden';
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  override readonly code = 'not_found';
}

export class ConflictError extends ApiError {
  override name = 'ConflictError';
  override readonly code = 'conflict';
}

/**
 * A request whose Idempotency-Key is held by one still running (often the client's own earlier
 * attempt, timed out on its side): a 409 that says when to try again, so that a client retrying its
 * own request waits for the first to finish and gets its answer replayed.
 */
export class RequestInProgressError extends ConflictError {
  override name = 'RequestInProgressError';
  override headers(): Record<string, string> {
    return { 'Retry-After': '1' };
  }
}

/** An Idempotency-Key sent again with a different request. */
export class IdempotencyKeyReusedError extends ApiError {
  override name = 'IdempotencyKeyReusedError';
  override readonly code = 'idempotency_key_reused';
}

export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
  override readonly code = 'rate_limit_exceeded';
  readonly retryAfterSeconds: number;
  /** The allowance that ran out, when it is not the one the request already reports. */
  readonly rateLimit: RateLimitState | undefined;
  constructor(retryAfterSeconds: number, rateLimit?: RateLimitState) {
    super('Rate limit exceeded');
    this.retryAfterSeconds = retryAfterSeconds;
    this.rateLimit = rateLimit;
  }
  override headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}
