import type { MiddlewareObj } from '@middy/core';
import { withHeaders } from '#shared/http/answers/responses.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { RateLimitedError } from '#shared/model/errors.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';
import { config } from '#shared/runtime/config.ts';
import { ietfRateLimitFields } from './ietf-rate-limit-fields.ts';

/**
 * Puts the three X-RateLimit-* headers, and the IETF `RateLimit-Policy` and `RateLimit` fields, on
 * every response of a rate-limited request, errors included. A 429 reports the allowance that ran out (login's per-email one, say), which may not
 * be the one the request was counted against first.
 */
export function rateLimitHeaders(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const stamp = (request: EndpointRequest): void => {
    const exhausted = request.error instanceof RateLimitedError ? request.error.rateLimit : undefined;
    const limit = exhausted ?? request.context.state?.rateLimit;
    if (!limit || !request.response) return;
    request.response = withHeaders(request.response, {
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit.remaining)),
      'X-RateLimit-Reset': String(limit.resetAt),
      ...ietfRateLimitFields(limit, config.RATE_LIMIT_WINDOW_SECONDS, nowSeconds()),
    });
  };
  return { after: stamp, onError: stamp };
}
