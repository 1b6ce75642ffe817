import type { MiddlewareObj } from '@middy/core';
import { admit, allowanceBeforeCounting } from '../domain/admission.ts';
import { headerValue } from './headers.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

/**
 * `Authorization: Bearer <API_KEY>` authentication plus the per-key rate limit. An allowance is
 * recorded before anything can fail, so a 401, a 429 or a 500 carries the X-RateLimit-* headers too.
 */
export function apiKeyAuth(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = async (request: EndpointRequest): Promise<void> => {
    const { state } = request.context;
    state.rateLimit = allowanceBeforeCounting();
    const admission = await admit(headerValue(request.event, 'authorization'), state.sourceIp);
    state.rateLimit = admission.rateLimit;
    if (!admission.admitted) throw admission.error;
    state.caller = admission.caller;
  };
  return { before };
}
