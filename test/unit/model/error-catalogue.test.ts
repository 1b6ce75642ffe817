import { errorResponse } from '../../../shared/http/error-response.ts';
import {
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../../shared/http/http-errors.ts';
import { errorCatalogue, MAX_REQUEST_BODY_BYTES } from '../../../shared/model/error-catalogue.ts';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../../../shared/model/errors.ts';

const answer = (error: unknown) => {
  const response = errorResponse(error);
  return { status: response.statusCode, body: JSON.parse(response.body) as unknown };
};

describe('the error catalogue', () => {
  it('gives each thrown error its code, its status and, where fixed, its message', () => {
    expect([
      answer(new ValidationError('branch', 'branch is not valid')),
      answer(new UnauthorizedError('no key')),
      answer(new ForbiddenError('not yours')),
      answer(new NotFoundError('none')),
      answer(new MethodNotAllowedError(['GET'])),
      answer(new ConflictError('taken')),
      answer(new PayloadTooLargeError(MAX_REQUEST_BODY_BYTES)),
      answer(new UnsupportedMediaTypeError()),
      answer(new RateLimitedError(7)),
      answer(new Error('boom')),
    ]).toEqual([
      { status: 400, body: { error: 'validation_error', message: 'branch is not valid', field: 'branch' } },
      { status: 401, body: { error: 'unauthorized', message: 'no key' } },
      { status: 403, body: { error: 'forbidden', message: 'not yours' } },
      { status: 404, body: { error: 'not_found', message: 'none' } },
      { status: 405, body: { error: 'method_not_allowed', message: 'This path supports GET' } },
      { status: 409, body: { error: 'conflict', message: 'taken' } },
      {
        status: 413,
        body: { error: 'payload_too_large', message: errorCatalogue.payload_too_large.message },
      },
      {
        status: 415,
        body: { error: 'unsupported_media_type', message: errorCatalogue.unsupported_media_type.message },
      },
      { status: 429, body: { error: 'rate_limit_exceeded', retryAfter: 7 } },
      { status: 500, body: { error: 'internal_error', message: 'An unexpected error occurred' } },
    ]);
  });

  it('states the limit the body check enforces', () => {
    expect(errorCatalogue.payload_too_large.message).toBe(
      `Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
    );
  });
});
