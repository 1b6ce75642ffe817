import type { MiddlewareObj } from '@middy/core';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../errors.ts';
import { MethodNotAllowedError, PayloadTooLargeError, UnsupportedMediaTypeError } from './http-errors.ts';
import { logError } from './log.ts';
import { jsonResponse } from './responses.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

const INTERNAL_MESSAGE = 'An unexpected error occurred';

/** The contract's JSON error for a thrown value; anything unknown becomes the generic 500. */
export function errorResponse(error: unknown): ProxyResult {
  if (error instanceof ValidationError) {
    return jsonResponse(400, { error: 'validation_error', message: error.message, field: error.field });
  }
  if (error instanceof UnauthorizedError) {
    return jsonResponse(401, { error: 'unauthorized', message: error.message });
  }
  if (error instanceof ForbiddenError)
    return jsonResponse(403, { error: 'forbidden', message: error.message });
  if (error instanceof NotFoundError)
    return jsonResponse(404, { error: 'not_found', message: error.message });
  if (error instanceof MethodNotAllowedError) {
    return jsonResponse(
      405,
      { error: 'method_not_allowed', message: error.message },
      { Allow: error.allow.join(', ') },
    );
  }
  if (error instanceof ConflictError) return jsonResponse(409, { error: 'conflict', message: error.message });
  if (error instanceof PayloadTooLargeError) {
    return jsonResponse(413, { error: 'payload_too_large', message: error.message });
  }
  if (error instanceof UnsupportedMediaTypeError) {
    return jsonResponse(415, { error: 'unsupported_media_type', message: error.message });
  }
  if (error instanceof RateLimitedError) {
    // The spec's 429 body has no `message`.
    return jsonResponse(
      429,
      { error: 'rate_limit_exceeded', retryAfter: error.retryAfterSeconds },
      { 'Retry-After': String(error.retryAfterSeconds) },
    );
  }
  return jsonResponse(500, { error: 'internal_error', message: INTERNAL_MESSAGE });
}

const isExpected = (response: ProxyResult): boolean => response.statusCode < 500;

/** Shapes every error into the contract's JSON; logs the unexpected ones with their cause. */
export function errorShaping(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const onError = (request: EndpointRequest): void => {
    const response = errorResponse(request.error);
    if (!isExpected(response)) {
      logError('unhandled error', { requestId: request.context.state?.requestId }, request.error);
    }
    // Set, not returned: returning would stop the outer middlewares from adding their headers.
    request.response = response;
  };
  return { onError };
}
