import type { MiddlewareObj } from '@middy/core';
import { admit, allowanceBeforeCounting } from '#shared/domain/admission.ts';
import { headerValue } from '#shared/http/headers.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { ForbiddenError } from '#shared/model/errors.ts';
import { allows, type Scope, scopeFor } from '#shared/model/scopes.ts';

/**
 * `Authorization: Bearer <API_KEY>` authentication, the per-key rate limit and the key's scopes. An allowance is
 * recorded before anything can fail, so a 401, a 429 or a 500 carries the X-RateLimit-* headers too.
 */
export function apiKeyAuth(
  scope?: Scope | readonly Scope[],
): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = async (request: EndpointRequest): Promise<void> => {
    const { state } = request.context;
    state.rateLimit = allowanceBeforeCounting();
    const admission = await admit(headerValue(request.event, 'authorization'), state.sourceIp);
    state.rateLimit = admission.rateLimit;
    if (!admission.admitted) throw admission.error;
    // Known before the scope is checked: a refusal for a scope is still a caller's, which the access
    // line names and the team's audit log records (shared/http/audit-trail.ts).
    state.caller = admission.caller;
    // Counted first: a request outside the key's scopes still spends its allowance, like any other.
    const needed = scope ?? scopeFor(request.event.httpMethod);
    if (!allows(admission.caller.scopes, needed)) {
      const named = typeof needed === 'string' ? needed : needed.join(' or ');
      throw new ForbiddenError(`This request needs the ${named} scope, which this API key does not have`);
    }
  };
  return { before };
}
