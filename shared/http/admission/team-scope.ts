import type { MiddlewareObj } from '@middy/core';
import { authorize, confirmMembership, teamNamed } from '#shared/domain/teams/access.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { ForbiddenError, ValidationError } from '#shared/model/errors.ts';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import type { EndpointRoute } from '#shared/routes.ts';

/** The team a request names: the path's `{teamId}` on a team's own routes, else `?teamId=`. */
export const teamIdNamedBy = (route: EndpointRoute, event: ProxyEvent): string | undefined =>
  route.team === 'path' ? event.pathParameters?.teamId : event.queryStringParameters?.teamId;

/**
 * After admission: the team the request acts in (`?teamId=`, the path's `{teamId}` on a team's own
 * routes, else the caller's personal team), the caller's role there, and whether that role allows
 * the row's permission (403 otherwise). In a personal team the role is known without a read. A row
 * that reads the membership together with its resource (`membership: 'withResource'`) leaves it to
 * its domain code; the request still cannot answer without it (checked after the handler).
 */
export function teamScope(
  route: EndpointRoute,
): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const callerOf = (request: EndpointRequest) => {
    const { caller } = request.context.state;
    if (!caller) throw new Error('teamScope runs after admission');
    return caller;
  };
  const before = async (request: EndpointRequest): Promise<void> => {
    const caller = callerOf(request);
    const named = teamIdNamedBy(route, request.event);
    // Checked here, before the team is looked for (the handler's schemas come later): an empty
    // `?teamId=` is not "no team", and a 404 never echoes kilobytes of what was sent.
    if (named !== undefined && (named.length === 0 || named.length > ID_MAX_LENGTH)) {
      throw new ValidationError('teamId', `teamId must be 1 to ${ID_MAX_LENGTH} characters`);
    }
    caller.team = teamNamed(caller, named);
    if (route.membership !== 'withResource') await confirmMembership(caller);
    if (caller.team.role !== undefined && route.permission !== undefined) authorize(caller, route.permission);
  };
  // A row that reads the membership with its resource authorizes in its domain code before any
  // write; checked again here, so that no answer of such a row leaves without both.
  const after = (request: EndpointRequest): void => {
    const caller = callerOf(request);
    if (caller.team.role === undefined) {
      throw new Error(`${route.handler} answered without reading the caller's membership`);
    }
    if (route.permission !== undefined) authorize(caller, route.permission);
  };
  return { before, after };
}

/** Refuses a team token what only a user's key may do (a row's `tokens: 'refused'`). */
export function usersOnly(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  return {
    before: (request) => {
      if (request.context.state.caller?.token) {
        throw new ForbiddenError(
          "A team token acts as its team, not as a person: only a user's key may make this request",
        );
      }
    },
  };
}
