import { errorResponse } from '#shared/http/answers/error-response.ts';
import {
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '#shared/http/answers/http-errors.ts';
import {
  type ErrorCode,
  errorCatalogue,
  errorCodes,
  fixedMessageOf,
  MAX_REQUEST_BODY_BYTES,
} from '#shared/model/error-catalogue.ts';
import {
  ConflictError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '#shared/model/errors.ts';

// The one check of the mapping: every code of the catalogue, from the error that carries it to the
// answer. A new code without a thrown example here fails to compile (the record is total).

const thrown: Record<Exclude<ErrorCode, 'bad_request'>, unknown> = {
  validation_error: new ValidationError('branch', 'branch is not valid'),
  unauthorized: new UnauthorizedError('no key'),
  forbidden: new ForbiddenError('not yours'),
  not_found: new NotFoundError('none'),
  method_not_allowed: new MethodNotAllowedError(['GET', 'POST']),
  conflict: new ConflictError('taken'),
  payload_too_large: new PayloadTooLargeError(10),
  unsupported_media_type: new UnsupportedMediaTypeError(),
  idempotency_key_reused: new IdempotencyKeyReusedError('used with another request'),
  rate_limit_exceeded: new RateLimitedError(7),
  internal_error: new TypeError('secret internals: table platform-users'),
};

const expectedBodies: Record<keyof typeof thrown, unknown> = {
  validation_error: { error: 'validation_error', message: 'branch is not valid', field: 'branch' },
  unauthorized: { error: 'unauthorized', message: 'no key' },
  forbidden: { error: 'forbidden', message: 'not yours' },
  not_found: { error: 'not_found', message: 'none' },
  method_not_allowed: { error: 'method_not_allowed', message: 'This path supports GET, POST' },
  conflict: { error: 'conflict', message: 'taken' },
  payload_too_large: { error: 'payload_too_large', message: `Request body must not exceed 65536 bytes` },
  unsupported_media_type: {
    error: 'unsupported_media_type',
    message: 'Request body must be sent with Content-Type: application/json',
  },
  idempotency_key_reused: { error: 'idempotency_key_reused', message: 'used with another request' },
  rate_limit_exceeded: { error: 'rate_limit_exceeded', retryAfter: 7 },
  internal_error: { error: 'internal_error', message: 'An unexpected error occurred' },
};

const expectedHeaders: Partial<Record<keyof typeof thrown, Record<string, string>>> = {
  method_not_allowed: { Allow: 'GET, POST' },
  rate_limit_exceeded: { 'Retry-After': '7' },
};

describe('the error catalogue', () => {
  it.each(Object.keys(thrown) as (keyof typeof thrown)[])(
    'answers %s with its status, its body and its headers',
    (code) => {
      const response = errorResponse(thrown[code]);
      expect({
        status: response.statusCode,
        body: JSON.parse(response.body),
        headers: response.headers,
      }).toEqual({
        status: errorCatalogue[code].status,
        body: expectedBodies[code],
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...expectedHeaders[code] },
      });
    },
  );

  it('has a thrown example for every code but the one only API Gateway answers', () => {
    expect(errorCodes.filter((code) => !(code in thrown))).toEqual(['bad_request']);
  });

  it('answers a fixed message whatever the thrower wrote', () => {
    expect(fixedMessageOf('payload_too_large')).toBe(errorCatalogue.payload_too_large.message);
    expect(JSON.parse(errorResponse(new PayloadTooLargeError(1)).body).message).toBe(
      errorCatalogue.payload_too_large.message,
    );
  });

  it('states the limit the body check enforces', () => {
    expect(errorCatalogue.payload_too_large.message).toBe(
      `Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
    );
  });
});
