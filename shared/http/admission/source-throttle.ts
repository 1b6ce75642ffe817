import type { MiddlewareObj } from '@middy/core';
import { throttleAuthRequest } from '#shared/domain/auth-throttle.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';

/** Rate limit per source address for endpoints without a key (/auth/*), with the same headers. */
export function sourceThrottle(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = async (request: EndpointRequest): Promise<void> => {
    const { state } = request.context;
    state.rateLimit = await throttleAuthRequest(state.sourceIp);
  };
  return { before };
}
