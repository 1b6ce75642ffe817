import type { RateLimitState } from './rate-limit.ts';

// Typed failures thrown where they arise. They carry no HTTP status: shared/http/error-response.ts
// is the one place that turns them into the contract's JSON errors.

export class ValidationError extends Error {
  override name = 'ValidationError';
  /** Dotted path of the offending input, e.g. `projectId`, `body`, `cursor`. */
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

export class UnauthorizedError extends Error {
  override name = 'UnauthorizedError';
}

export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** An Idempotency-Key sent again with a different request. */
export class IdempotencyKeyReusedError extends Error {
  override name = 'IdempotencyKeyReusedError';
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  readonly retryAfterSeconds: number;
  /** The allowance that ran out, when it is not the one the request already reports. */
  readonly rateLimit: RateLimitState | undefined;
  constructor(retryAfterSeconds: number, rateLimit?: RateLimitState) {
    super('Rate limit exceeded');
    this.retryAfterSeconds = retryAfterSeconds;
    this.rateLimit = rateLimit;
  }
}
