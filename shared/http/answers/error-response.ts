import type { MiddlewareObj } from '@middy/core';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { errorCatalogue, fixedMessageOf } from '#shared/model/error-catalogue.ts';
import { ApiError, RateLimitedError } from '#shared/model/errors.ts';
import { logError } from '#shared/runtime/log.ts';
import type { ErrorBody, RateLimitedBody } from '#shared/schemas/error-bodies.ts';
import { jsonResponse } from './responses.ts';

/** The body of an error the contract names: the 429's is `{error, retryAfter}`, every other one has a message. */
function bodyOf(error: ApiError): ErrorBody | RateLimitedBody {
  const { code } = error;
  if (code === 'rate_limit_exceeded') {
    return { error: code, retryAfter: error instanceof RateLimitedError ? error.retryAfterSeconds : 1 };
  }
  return {
    error: code,
    // A code whose message never varies answers that message, whatever the thrower wrote.
    message: fixedMessageOf(code) ?? error.message,
    ...(error.field === undefined ? {} : { field: error.field }),
  };
}

/** The contract's JSON error for a thrown value, by its code; anything else is the generic 500. */
export function errorResponse(error: unknown): ProxyResult {
  if (error instanceof ApiError) {
    return jsonResponse(errorCatalogue[error.code].status, bodyOf(error), error.headers());
  }
  const body: ErrorBody = { error: 'internal_error', message: errorCatalogue.internal_error.message };
  return jsonResponse(errorCatalogue.internal_error.status, body);
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
