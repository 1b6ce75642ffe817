import type { MiddlewareObj } from '@middy/core';
import { auditScope } from '#shared/db/audit/scope.ts';
import { recordDenial } from '#shared/domain/audit.ts';
import { confirmMembership, type RoleReader, teamNamed } from '#shared/domain/teams/access.ts';
import { teamIdNamedBy } from '#shared/http/admission/team-scope.ts';
import type { AuditStamp } from '#shared/model/audit.ts';
import { newEventIdentity, targetTypeOf, USER_AGENT_MAX } from '#shared/model/audit.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ForbiddenError } from '#shared/model/errors.ts';
import { actsInTeam, type EndpointRoute } from '#shared/routes.ts';
import { config } from '#shared/runtime/config.ts';
import { logError } from '#shared/runtime/log.ts';
import { headerValue } from './headers.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from './types.ts';

// The team's audit log, as the chain sees it. Before the handler of a row that changes something,
// it opens the change (who, from where, which event) in the invocation's audit scope, where the
// store's client finds it and puts it on the change's write (shared/db/audit/stamp.ts). After a 403
// on a team's route it records the refusal: best effort, since a refusal changed nothing and
// failing to record one must never turn a 403 into a 500.

/** Who is acting: a person's key, or a team token (which acts as its team). */
export const actorOf = (caller: Caller): AuditStamp['actor'] =>
  caller.token
    ? { type: 'token', id: caller.keyId, name: caller.keyName }
    : { type: 'user', id: caller.userId, keyId: caller.keyId };

/** The project a row's path names (`/projects/{id}/...`), if any. */
const projectInPath = (route: EndpointRoute, event: ProxyEvent): string | undefined =>
  route.path.startsWith('/projects/{id}') ? event.pathParameters?.id : undefined;

function stampOf(route: EndpointRoute, request: EndpointRequest, caller: Caller, action: string): AuditStamp {
  const { state } = request.context;
  const projectId = projectInPath(route, request.event);
  return {
    ...newEventIdentity(config.AUDIT_RETENTION_DAYS),
    action,
    // A row about no one team (making one, joining one) records in the team its item belongs to.
    ...(actsInTeam(route) ? { teamId: caller.team.id } : {}),
    actor: actorOf(caller),
    requestId: state.requestId,
    ip: state.sourceIp,
    // Well formed: a cut through a surrogate pair would leave a half that DynamoDB refuses.
    userAgent: (headerValue(request.event, 'user-agent') ?? '').slice(0, USER_AGENT_MAX).toWellFormed(),
    ...(projectId === undefined ? {} : { projectId }),
  };
}

/**
 * The caller of a refused request, acting in the team it was aimed at; undefined when that team
 * is not the caller's (a refusal is recorded only in a team the caller belongs to: naming another
 * team must not write into its log). A request refused before its team was read (for a key's
 * scope, at admission) has its team and membership read here.
 */
async function refusedIn(
  route: EndpointRoute,
  request: EndpointRequest,
  readRole?: RoleReader,
): Promise<Caller | undefined> {
  const { caller } = request.context.state;
  if (!caller || !actsInTeam(route)) return undefined;
  const named = teamIdNamedBy(route, request.event);
  try {
    if (named !== undefined && named !== caller.team.id) caller.team = teamNamed(caller, named);
    await confirmMembership(caller, readRole);
    return caller;
  } catch {
    // Not a team of the caller's (or not one at all): nothing to record there.
    return undefined;
  }
}

export function auditTrail(
  route: EndpointRoute,
  readRole?: RoleReader,
): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    const scope = auditScope();
    const { caller } = request.context.state;
    if (!scope || !caller || route.audit === undefined) return;
    scope.stamp = stampOf(route, request, caller, route.audit);
  };
  const after = (request: EndpointRequest): void => {
    const scope = auditScope();
    const status = request.response?.statusCode ?? 0;
    const replayed = request.response?.headers?.['Idempotency-Replayed'] === 'true';
    if (!scope?.stamp || scope.carried || status >= 300 || replayed) return;
    const { action } = scope.stamp;
    logError(
      'audit: a change answered without its event',
      { requestId: request.context.state.requestId, action, status },
      new Error(`${route.handler} wrote no item of ${action}'s kind`),
    );
  };
  const onError = async (request: EndpointRequest): Promise<void> => {
    if (!(request.error instanceof ForbiddenError)) return;
    const caller = await refusedIn(route, request, readRole);
    if (!caller) return;
    const action = route.audit ?? route.permission ?? route.operationId;
    await recordDenial(stampOf(route, request, caller, action), {
      type: targetTypeOf(action),
      id: request.event.pathParameters?.id ?? request.event.pathParameters?.teamId ?? caller.team.id,
    });
  };
  return { before, after, onError };
}
