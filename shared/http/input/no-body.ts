import type { MiddlewareObj } from '@middy/core';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { ValidationError } from '#shared/model/errors.ts';

// The body of a request whose route takes none (a cancel, a verify, a test delivery, a DELETE): an
// empty one, or an empty JSON object as some clients send by habit. Anything else is refused as an
// unknown field would be on a route that takes a body, rather than silently ignored: a client that
// sends `{"reason": "..."}` to cancel learns that it is not kept.

const NOTHING = /^\s*(\{\s*\})?\s*$/;

export function noBody(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    const { body, isBase64Encoded } = request.event;
    if (!body) return;
    const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('latin1') : body;
    if (!NOTHING.test(text)) throw new ValidationError('body', 'This request takes no body');
  };
  return { before };
}
