import type { MiddlewareObj } from '@middy/core';
import { clock } from '../clock.ts';
import { logInfo } from './log.ts';
import { withHeaders } from './responses.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

/**
 * Outermost middleware: opens the request's state (id from API Gateway, source address), and on the
 * way out stamps `X-Request-Id` on whatever response the chain produced and writes one access log line.
 */
export function requestLifecycle(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    const { requestContext } = request.event;
    request.context.state = {
      requestId: requestContext.requestId,
      sourceIp: requestContext.identity.sourceIp,
      startedAt: clock.now(),
    };
  };

  const finish = (request: EndpointRequest): void => {
    const { state } = request.context;
    if (!request.response) return;
    request.response = withHeaders(request.response, { 'X-Request-Id': state.requestId });
    logInfo('request', {
      requestId: state.requestId,
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: request.response.statusCode,
      durationMs: clock.now() - state.startedAt,
      userId: state.caller?.userId,
    });
  };

  return { before, after: finish, onError: finish };
}
