/** The body of an API error: `{error, message?, field?, retryAfter?}`. */
export interface ErrorBody {
  error: string;
  message?: string;
  field?: string;
  retryAfter?: number;
  [key: string]: unknown;
}

/** An answer of 400 or above; the subclass says which `code`. */
export class PlatformError extends Error {
  override name = 'PlatformError';
  /** The HTTP status. */
  readonly status: number;
  /** The API's error code (`not_found`, ...), or `http_error` when the body was not the API's. */
  readonly code: string;
  /** The answer's `X-Request-Id`, for a support request or the logs. */
  readonly requestId: string | undefined;
  /** The error body as the API sent it. */
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, requestId?: string, message?: string) {
    super(message ?? body.message ?? `${body.error} (HTTP ${status})`);
    this.status = status;
    this.code = body.error;
    this.requestId = requestId;
    this.body = body;
  }
}

/** 400 `validation_error`: `field` is the dotted path of the first bad input. */
export class ValidationError extends PlatformError {
  override name = 'ValidationError';
  readonly field: string | undefined = this.body.field;
}
/** 400 `bad_request`: refused by API Gateway before the API saw it. */
export class BadRequestError extends PlatformError {
  override name = 'BadRequestError';
}
/** 401 `unauthorized`: no valid API key (or, from login, the wrong email or password). */
export class UnauthorizedError extends PlatformError {
  override name = 'UnauthorizedError';
}
/** 403 `forbidden`: the key's role or scopes do not allow it. */
export class ForbiddenError extends PlatformError {
  override name = 'ForbiddenError';
}
/** 404 `not_found`: no such resource among the caller's, or no such path. */
export class NotFoundError extends PlatformError {
  override name = 'NotFoundError';
}
/** 405 `method_not_allowed`. */
export class MethodNotAllowedError extends PlatformError {
  override name = 'MethodNotAllowedError';
}
/** 409 `conflict`: a taken value, an illegal transition, or the same Idempotency-Key still running. */
export class ConflictError extends PlatformError {
  override name = 'ConflictError';
}
/** 413 `payload_too_large`. */
export class PayloadTooLargeError extends PlatformError {
  override name = 'PayloadTooLargeError';
}
/** 415 `unsupported_media_type`. */
export class UnsupportedMediaTypeError extends PlatformError {
  override name = 'UnsupportedMediaTypeError';
}
/** 422 `idempotency_key_reused`: the Idempotency-Key was used with another request. */
export class IdempotencyKeyReusedError extends PlatformError {
  override name = 'IdempotencyKeyReusedError';
}
/** 429 `rate_limit_exceeded`: `retryAfter` is in seconds. */
export class RateLimitError extends PlatformError {
  override name = 'RateLimitError';
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ErrorBody, requestId?: string, message?: string, retryAfter?: number) {
    const seconds = body.retryAfter ?? retryAfter;
    super(status, body, requestId, message ?? `Rate limit exceeded: retry after ${seconds ?? '?'} s`);
    this.retryAfter = seconds;
  }
}
/** 500 `internal_error`. */
export class InternalError extends PlatformError {
  override name = 'InternalError';
}

/** The class of each code; any other code is a plain PlatformError. */
export const errorClasses: Record<
  string,
  new (
    status: number,
    body: ErrorBody,
    ...rest: [string?, string?, number?]
  ) => PlatformError
> = {
  validation_error: ValidationError,
  bad_request: BadRequestError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  conflict: ConflictError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  rate_limit_exceeded: RateLimitError,
  internal_error: InternalError,
};

/** The error for an answer of 400 or above, from its body (any body: a proxy's HTML page too). */
export async function errorOf(response: Response): Promise<PlatformError> {
  const text = await response.text();
  let body: ErrorBody | undefined;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {}
  if (typeof body?.error !== 'string') {
    body = {
      error: 'http_error',
      message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    };
  }
  const ErrorClass = errorClasses[body.error] ?? PlatformError;
  const header = (name: string) => response.headers.get(name) ?? undefined;
  return new ErrorClass(
    response.status,
    body,
    header('x-request-id'),
    undefined,
    Number(header('retry-after')) || undefined,
  );
}
