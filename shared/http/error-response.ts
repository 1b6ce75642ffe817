import type { MiddlewareObj } from '@middy/core';
import { errorCatalogue, type MessageErrorCode } from '#shared/model/error-catalogue.ts';
import {
  ConflictError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '#shared/model/errors.ts';
import { logError } from '#shared/runtime/log.ts';
import type { ErrorBody, RateLimitedBody } from '#shared/schemas/error-bodies.ts';
import { MethodNotAllowedError, PayloadTooLargeError, UnsupportedMediaTypeError } from './http-errors.ts';
import { jsonResponse } from './responses.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

/** The contract's error answer: the code's status from the catalogue, its message and `field`. */
function errorAnswer(
  code: MessageErrorCode,
  message: string,
  extra: { field?: string; headers?: Record<string, string> } = {},
): ProxyResult {
  const body: ErrorBody = {
    error: code,
    message,
    ...(extra.field === undefined ? {} : { field: extra.field }),
  };
  return jsonResponse(errorCatalogue[code].status, body, extra.headers);
}

/** The contract's JSON error for a thrown value; anything unknown becomes the generic 500. */
export function errorResponse(error: unknown): ProxyResult {
  if (error instanceof ValidationError) {
    return errorAnswer('validation_error', error.message, { field: error.field });
  }
  if (error instanceof UnauthorizedError) return errorAnswer('unauthorized', error.message);
  if (error instanceof ForbiddenError) return errorAnswer('forbidden', error.message);
  if (error instanceof NotFoundError) return errorAnswer('not_found', error.message);
  if (error instanceof MethodNotAllowedError) {
    return errorAnswer('method_not_allowed', error.message, { headers: { Allow: error.allow.join(', ') } });
  }
  if (error instanceof ConflictError) return errorAnswer('conflict', error.message);
  if (error instanceof IdempotencyKeyReusedError) return errorAnswer('idempotency_key_reused', error.message);
  if (error instanceof PayloadTooLargeError) {
    return errorAnswer('payload_too_large', errorCatalogue.payload_too_large.message);
  }
  if (error instanceof UnsupportedMediaTypeError) {
    return errorAnswer('unsupported_media_type', errorCatalogue.unsupported_media_type.message);
  }
  if (error instanceof RateLimitedError) {
    const body: RateLimitedBody = { error: 'rate_limit_exceeded', retryAfter: error.retryAfterSeconds };
    return jsonResponse(errorCatalogue.rate_limit_exceeded.status, body, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
  return errorAnswer('internal_error', errorCatalogue.internal_error.message);
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
