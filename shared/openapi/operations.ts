import * as z from 'zod/mini';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { ErrorCode } from '#shared/model/error-catalogue.ts';
import { roleAllows } from '#shared/model/roles.ts';
import { SCOPES, type Scope } from '#shared/model/scopes.ts';
import {
  type Access,
  actsInTeam,
  type EndpointRoute,
  type ReplySpec,
  scopesAccepted,
  takesIdempotencyKey,
} from '#shared/routes.ts';
import { requestSchemas } from '#shared/schemas/requests.ts';
import { responseBodies } from '#shared/schemas/responses.ts';
import { TeamQuery } from '#shared/schemas/teams/query.ts';
import { byStatus, errorResponseOf } from './error-responses.ts';
import { IdempotencyKeyHeader, type RateLimitHeaders, responseHeaders } from './headers.ts';

// One route row as an OpenAPI operation: its input from the schemas it names, its replies from the
// statuses it documents, and the errors its chain and its domain can answer with.

export const BEARER_SCHEME = 'apiKey';

/** Which answers of a route carry the X-RateLimit-* trio (see shared/http/admission/rate-limit-headers.ts). */
export function rateLimitHeadersOf(access: Access, status: number): RateLimitHeaders {
  if (access === 'apiKey') return 'always'; // the allowance is known before anything can fail
  if (access === 'authThrottled') return status === 500 ? 'unless-the-throttle-failed' : 'always';
  return 'never';
}

/** Whether every key may make the row's requests (no 403 for a missing scope). */
const isEveryScope = (accepted: readonly Scope[]): boolean =>
  SCOPES.every((scope) => accepted.includes(scope));

/** The errors a row can answer with: those of its chain (by access and input) and its domain's. */
function errorCodesOf(route: EndpointRoute): ErrorCode[] {
  const request = route.request ?? {};
  const idempotent = takesIdempotencyKey(route);
  const codes: ErrorCode[] = [
    ...(Object.keys(request).length > 0 || idempotent ? (['validation_error'] as const) : []),
    ...(request.body ? (['payload_too_large', 'unsupported_media_type'] as const) : []),
    ...(route.access === 'apiKey' ? (['unauthorized', 'rate_limit_exceeded'] as const) : []),
    // A key without a scope the row accepts: no scope is held by every key (a `build` key may not read).
    ...(route.access === 'apiKey' && !isEveryScope(scopesAccepted(route)) ? (['forbidden'] as const) : []),
    ...(route.access === 'authThrottled' ? (['rate_limit_exceeded'] as const) : []),
    ...(idempotent ? (['conflict', 'idempotency_key_reused'] as const) : []),
    // A team the caller is not in is 404; a role short of the row's permission is 403.
    ...(actsInTeam(route) ? (['not_found'] as const) : []),
    // A team token asking what only a user's key may do.
    ...(route.tokens === 'refused' ? (['forbidden'] as const) : []),
    ...(actsInTeam(route) && route.permission && !roleAllows('viewer', route.permission)
      ? (['forbidden'] as const)
      : []),
    ...(route.errors ?? []),
    'internal_error',
  ];
  return [...new Set(codes)];
}

const statusTexts: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  503: 'Unavailable',
};

function replyResponse(route: EndpointRoute, status: number, spec: ReplySpec): ZodOpenApiResponseObject {
  const description = statusTexts[status] ?? String(status);
  const rateLimit = rateLimitHeadersOf(route.access, status);
  const replayable = takesIdempotencyKey(route);
  if (spec === null) return { description, headers: responseHeaders({ rateLimit, status, replayable }) };
  const { body, mediaType, headers, events } = typeof spec === 'string' ? { body: spec } : spec;
  return {
    description,
    headers: responseHeaders({ rateLimit, status, reply: headers, replayable }),
    content: {
      [mediaType ?? 'application/json']: { schema: responseBodies[body] },
      // The same answer as an event stream, for a client that asks for one.
      ...(events ? { 'text/event-stream': { schema: responseBodies[events] } } : {}),
    },
  };
}

function responsesOf(route: EndpointRoute): ZodOpenApiResponsesObject {
  const responses = new Map<number, ZodOpenApiResponseObject>();
  for (const [status, spec] of Object.entries(route.replies)) {
    responses.set(Number(status), replyResponse(route, Number(status), spec));
  }
  for (const [status, codes] of byStatus(errorCodesOf(route))) {
    if (responses.has(status))
      throw new Error(`${route.operationId}: ${status} is both a reply and an error`);
    const headers = responseHeaders({ rateLimit: rateLimitHeadersOf(route.access, status), status });
    responses.set(status, errorResponseOf(codes, headers));
  }
  return Object.fromEntries([...responses].sort(([a], [b]) => a - b));
}

/** The row's query parameters, `teamId` among them where the row acts in a team named by the query. */
function queryOf(route: EndpointRoute): z.ZodMiniObject | undefined {
  const own = route.request?.query ? requestSchemas[route.request.query] : undefined;
  if (!actsInTeam(route) || route.team === 'path') return own as z.ZodMiniObject | undefined;
  return own ? z.extend(own as z.ZodMiniObject, TeamQuery.shape) : TeamQuery;
}

export function operationOf(route: EndpointRoute): ZodOpenApiOperationObject {
  const { params, body, headers } = route.request ?? {};
  const query = queryOf(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: route.access === 'apiKey' ? [{ [BEARER_SCHEME]: [] }] : [],
    ...(params || query || headers || takesIdempotencyKey(route)
      ? {
          requestParams: {
            ...(params ? { path: requestSchemas[params] } : {}),
            ...(query ? { query } : {}),
            ...(takesIdempotencyKey(route) ? { header: IdempotencyKeyHeader } : {}),
            ...(headers ? { header: requestSchemas[headers] } : {}),
          },
        }
      : {}),
    ...(body
      ? { requestBody: { required: true, content: { 'application/json': { schema: requestSchemas[body] } } } }
      : {}),
    responses: responsesOf(route),
  };
}
