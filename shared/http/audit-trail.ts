import type { MiddlewareObj } from '@middy/core';
import { auditScope } from '#shared/db/audit/scope.ts';
import { recordDenial } from '#shared/domain/audit.ts';
import { confirmMembership, type RoleReader, teamNamed } from '#shared/domain/teams/access.ts';
import { teamIdNamedBy } from '#shared/http/admission/team-scope.ts';
import type { AuditStamp } from '#shared/model/audit.ts';
import { type AuditEvent, newEventIdentity, USER_AGENT_MAX } from '#shared/model/audit.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ForbiddenError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
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

/**
 * What a refused request was aimed at: the deepest thing its path names (`/teams/{teamId}/members/
 * {userId}`: the member; `/projects/{id}/domains`: the project a domain would be added to), else the
 * project a body read before the refusal names (`POST /deployments`), else the team the request
 * acted in (`POST /projects`: a project made there). Never the team's id under another thing's type.
 */
function refusedTarget(route: EndpointRoute, request: EndpointRequest, teamId: string): AuditEvent['target'] {
  // The path's last `collection/{parameter}`: the collection names the type (`env`: an environment).
  const [, noun = '', name = ''] = /(\w+)\/\{(\w+)\}(?!.*\{)/.exec(route.path) ?? [];
  const id = request.event.pathParameters?.[name];
  if (id) return { type: noun === 'env' ? 'environment' : noun.slice(0, -1), id };
  const projectId = (request.context.state.body as { projectId?: unknown } | undefined)?.projectId;
  return typeof projectId === 'string' && isIdOf('prj', projectId)
    ? { type: 'project', id: projectId }
    : { type: 'team', id: teamId };
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
    const stamp = stampOf(route, request, caller, route.audit ?? route.permission ?? route.operationId);
    const target = refusedTarget(route, request, caller.team.id);
    await recordDenial(target.type === 'project' ? { ...stamp, projectId: target.id } : stamp, target);
  };
  return { before, after, onError };
}
