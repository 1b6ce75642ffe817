import type { MiddlewareObj } from '@middy/core';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { ValidationError } from '#shared/model/errors.ts';

// The path's and the query's parameters made one plain value each, in one step of the chain after
// admission (a 401 comes first) and before anything reads them: the team scope (`?teamId=`, or the
// path's), the audit trail, the handler's schema.
//
// - A query parameter given more than once (`?status=ready&status=error`) is refused, naming it: API
//   Gateway hands the handler only the last value, and a filter silently narrowed to one value, or a
//   request acting in the second team it named, is worse than a 400.
// - A path parameter comes as the client encoded it (`caf%C3%A9.example.com`): a REST API does not
//   decode it, as an HTTP API would. Each is decoded once, in place. A value without a percent-escape
//   is the same either way, so an event from a source that decodes reads the same; no value the API
//   takes holds a `%` of its own (ids and domain names never do). An escape that is not UTF-8 is a
//   400 naming the parameter.

export function requestTarget(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = ({ event }: EndpointRequest): void => {
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
      if ((values?.length ?? 0) > 1) throw new ValidationError(name, `${name} must be given once`);
    }
    const path = event.pathParameters ?? {};
    for (const name in path) {
      try {
        path[name] = decodeURIComponent(path[name] ?? '');
      } catch {
        throw new ValidationError(name, `${name} is not valid percent-encoded UTF-8`);
      }
    }
  };
  return { before };
}
