import type { MiddlewareObj } from '@middy/core';
import { storeTimings } from '#shared/db/store-timing.ts';
import { withHeaders } from '#shared/http/answers/responses.ts';
import type { Route } from '#shared/routes.ts';
import { clock } from '#shared/runtime/clock.ts';
import { logInfo, logText } from '#shared/runtime/log.ts';
import { accessLineFormat, textAccessLine } from './access-line.ts';
import { metricFields, rowServing } from './metrics.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

/**
 * Outermost middleware: opens the request's state (id from API Gateway, source address), and on the
 * way out stamps `X-Request-Id` on whatever response the chain produced and writes one access log
 * line, which carries the route's metrics in CloudWatch's Embedded Metric Format (metrics.ts), or on
 * a terminal a short line of text (access-line.ts).
 * `rows` are the route rows the function serves.
 */
export function requestLifecycle(
  rows: readonly Route[],
): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    const { requestContext } = request.event;
    request.context.state = {
      requestId: requestContext.requestId,
      sourceIp: requestContext.identity.sourceIp,
      startedAt: clock.now(),
      startedAtMonotonic: performance.now(),
    };
  };

  const finish = (request: EndpointRequest): void => {
    const { state } = request.context;
    if (!request.response) return;
    request.response = withHeaders(request.response, { 'X-Request-Id': state.requestId });
    const { httpMethod, resource } = request.event;
    if (accessLineFormat() === 'text') {
      logText(
        textAccessLine({
          method: httpMethod,
          path: request.event.requestContext.path,
          status: request.response.statusCode,
          durationMs: performance.now() - state.startedAtMonotonic,
          requestId: state.requestId,
        }),
      );
      return;
    }
    const route = rowServing(rows, httpMethod, resource);
    const outcome = route && {
      route,
      status: request.response.statusCode,
      durationMs: performance.now() - state.startedAtMonotonic,
      admissionMs: state.admissionMs,
      store: storeTimings(),
    };
    logInfo('request', {
      requestId: state.requestId,
      method: httpMethod,
      resource,
      status: request.response.statusCode,
      durationMs: clock.now() - state.startedAt,
      userId: state.caller?.userId,
      ...(outcome && metricFields(outcome, Date.now())),
    });
  };

  return { before, after: finish, onError: finish };
}
