import type { MiddlewareObj } from '@middy/core';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { ValidationError } from '#shared/model/errors.ts';

// A query parameter given more than once (`?status=ready&status=error`) is refused, naming it: API
// Gateway hands the handler only the last value, and a filter silently narrowed to one value, or a
// request acting in the second team it named, is worse than a 400. One step of the chain, after
// admission (a 401 comes first) and before anything reads the query: the team scope reads `?teamId=`,
// the handler its schema.

export function singleQueryValues(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    for (const [name, values] of Object.entries(request.event.multiValueQueryStringParameters ?? {})) {
      if ((values?.length ?? 0) > 1) throw new ValidationError(name, `${name} must be given once`);
    }
  };
  return { before };
}
