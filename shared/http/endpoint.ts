import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { withAuditScope } from '#shared/db/audit/scope.ts';
import { storeClients } from '#shared/db/client.ts';
import { withStoreTimings } from '#shared/db/store-timing.ts';
import { type TableKey, tables } from '#shared/db/tables.ts';
import { findRole } from '#shared/db/teams/teams.ts';
import { roleAlone } from '#shared/db/teams/with-membership.ts';
import type { RoleReader } from '#shared/domain/teams/access.ts';
import { apiKeyAuth } from '#shared/http/admission/api-key-auth.ts';
import { rateLimitHeaders } from '#shared/http/admission/rate-limit-headers.ts';
import { sourceThrottle } from '#shared/http/admission/source-throttle.ts';
import { teamScope, usersOnly } from '#shared/http/admission/team-scope.ts';
import { errorShaping } from '#shared/http/answers/error-response.ts';
import { repliesFor } from '#shared/http/answers/replies.ts';
import type {
  DocumentedReply,
  HandlerName,
  KeyHandlerName,
  OpenHandlerName,
  ReplyHelpers,
  RequestSchemasOf,
} from '#shared/http/answers/reply-types.ts';
import { replyResult } from '#shared/http/answers/responses.ts';
import { idempotent } from '#shared/http/idempotency/idempotent.ts';
import { jsonBody } from '#shared/http/input/json-body.ts';
import { noBody } from '#shared/http/input/no-body.ts';
import { requestTarget } from '#shared/http/input/request-target.ts';
import { namedHeaders, parseInput } from '#shared/http/input/validate-input.ts';
import type { Caller } from '#shared/model/caller.ts';
import { SCOPES } from '#shared/model/scopes.ts';
import { actsInTeam, isFallback, type Route, takesBody, takesIdempotencyKey } from '#shared/routes.ts';
import { config } from '#shared/runtime/config.ts';
import { requestBudgetMs, withDeadline } from '#shared/runtime/deadline.ts';
import { holdsOpenMs } from '#shared/runtime/function-settings.ts';
import { requireEnv } from '#shared/runtime/variables.ts';
import { auditTrail } from './audit-trail.ts';
import { headerValue } from './headers.ts';
import { originOf } from './origin.ts';
import { ownRows, readsMembershipWithResource } from './own-rows.ts';
import { requestLifecycle } from './request-lifecycle.ts';
import type { EndpointContext, ProxyEvent, ProxyResult } from './types.ts';

// The middleware chain, built in this one place for every function:
//   request id + access log -> rate-limit headers -> error shaping
//   -> admission (API key + rate limit, or the per-address throttle of /auth/*)
//   -> the request target (a query parameter given twice is a 400; path parameters decoded once) -> team scope (the team acted in, the role)
//   -> body (size, type, JSON; on a route that takes none, none) -> the audit trail (the change it makes, a refusal) -> zod input
//   -> handler.
// Admission comes before the body: a stranger's body is never parsed, and a 413 or 415 has been
// counted and carries the rate-limit headers like any other answer. Middy runs `after`/`onError`
// in reverse order, so errors are shaped first and then stamped with the rate-limit headers and
// the request id on their way out.

// Compiled into a Lambda bundle beside its rows (own-rows.ts): whether its chain runs these parts.
// Tested with `typeof` where each part is chosen, the only test esbuild folds, so that a bundle
// leaves out the code of a part its function never runs.
declare const BUNDLED_TAKES_IDEMPOTENCY_KEY: boolean | undefined;
declare const BUNDLED_TAKES_BODY: boolean | undefined;
declare const BUNDLED_MEMBERSHIP_WITH_RESOURCE: boolean | undefined;

/**
 * How a row's chain reads the caller's membership where its handler did not (a replay, a refusal
 * before the handler): as the row is granted to, by GetItem, or by BatchGetItem for a row that reads
 * it beside its resource.
 */
function roleReaderOf(route: Route): RoleReader {
  // One expression, for esbuild to fold: a bundle then holds the one reader its row uses.
  return (
    typeof BUNDLED_MEMBERSHIP_WITH_RESOURCE === 'boolean'
      ? BUNDLED_MEMBERSHIP_WITH_RESOURCE
      : readsMembershipWithResource(route)
  )
    ? roleAlone
    : findRole;
}

type Middleware = MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext>;

export interface InputSchemas {
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Request headers by their exact names (an object schema), matched case-insensitively. */
  headers?: z.ZodMiniObject;
}

type Parsed<S extends InputSchemas, K extends keyof InputSchemas> = S[K] extends z.ZodMiniType
  ? z.output<S[K]>
  : undefined;

export interface OpenInput<S extends InputSchemas, H extends HandlerName = HandlerName> {
  params: Parsed<S, 'params'>;
  query: Parsed<S, 'query'>;
  body: Parsed<S, 'body'>;
  headers: Parsed<S, 'headers'>;
  /**
   * `path` is the path the client used, stage included (API Gateway's requestContext.path); `origin`
   * the scheme and host it used (API Gateway's domain name; the local gateway's Host, port included).
   */
  request: {
    id: string;
    method: string;
    resource: string;
    path: string;
    origin: string;
    sourceIp: string;
    /** What the client accepts (`Accept`), for the rows that answer in more than one media type. */
    accept?: string;
  };
  /** The only way to answer: each helper takes the body the route table documents for its status. */
  reply: ReplyHelpers<H>;
}

export interface KeyInput<S extends InputSchemas, H extends HandlerName = HandlerName>
  extends OpenInput<S, H> {
  caller: Caller;
}

/** A Lambda entry point: API Gateway's proxy event in, its result out. */
export type Handler = (event: ProxyEvent, context: Context) => Promise<ProxyResult>;

/** The first row the handler serves: its access and tables are those of all its rows. */
const routeFor = (handlerName: string): Route => ownRows(handlerName)[0] as Route;

/**
 * Fails the cold start, not a request, when a table the route names was not configured; and makes
 * the store's clients there, in the init phase's CPU, where missing credentials fail too (the local
 * gateway builds its handlers the same way; a test's changed endpoint gets new ones on first use).
 */
function requireTables(route: Route): void {
  const keys = Object.keys(route.tables) as TableKey[];
  for (const key of keys) requireEnv(tables[key].envVar);
  if (keys.length > 0) storeClients();
}

/** The admission middleware, timed for the metrics whether it admits or throws. */
function timed(middleware: Middleware): Middleware {
  const admit = middleware.before;
  if (!admit) return middleware;
  const before = async (request: Parameters<typeof admit>[0]): Promise<void> => {
    const started = performance.now();
    try {
      await admit(request);
    } finally {
      request.context.state.admissionMs = performance.now() - started;
    }
  };
  return { ...middleware, before };
}

function admissionFor(route: Route): Middleware[] {
  if (route.access === 'apiKey') {
    return [
      // The fallback answers any key's request 404 or 405, whatever its scopes: a read key sending
      // DELETE to a known path learns its methods, not that it lacks a scope.
      timed(apiKeyAuth(isFallback(route) ? SCOPES : route.scope)),
      ...(!isFallback(route) && route.tokens === 'refused' ? [usersOnly()] : []),
    ];
  }
  if (route.access === 'authThrottled') return [timed(sourceThrottle())];
  return [];
}

function build<S extends InputSchemas, H extends HandlerName>(
  handlerName: H,
  schemas: S,
  handle: (context: EndpointContext, input: OpenInput<S, H>) => Promise<DocumentedReply<H>>,
): Handler {
  const rows = ownRows(handlerName);
  const route = rows[0] as Route;
  requireTables(route);
  // The body is parsed by what the row says; the handler's schema must agree, or its bundle would
  // leave the parser out (own-rows.ts).
  if (takesBody(route) !== (schemas.body !== undefined)) {
    throw new Error(
      `${handlerName}: its row's request.body and its body schema must both be given or neither`,
    );
  }
  const reply = repliesFor<H>();
  const run = async (event: ProxyEvent, context: EndpointContext): Promise<ProxyResult> => {
    const accept = headerValue(event, 'accept');
    const input = {
      params: schemas.params ? parseInput(schemas.params, event.pathParameters ?? {}, 'path') : undefined,
      query: schemas.query
        ? parseInput(schemas.query, event.queryStringParameters ?? {}, 'query')
        : undefined,
      body: schemas.body ? parseInput(schemas.body, context.state.body, 'body') : undefined,
      headers: schemas.headers
        ? parseInput(schemas.headers, namedHeaders(schemas.headers, event.headers), 'headers')
        : undefined,
      request: {
        id: context.state.requestId,
        method: event.httpMethod,
        resource: event.resource,
        path: event.requestContext.path,
        origin: originOf(event),
        sourceIp: context.state.sourceIp,
        ...(accept === undefined ? {} : { accept }),
      },
      reply,
    } as OpenInput<S, H>;
    return replyResult(await handle(context, input));
  };
  const lambdaHandler = (
    typeof BUNDLED_TAKES_IDEMPOTENCY_KEY === 'boolean'
      ? BUNDLED_TAKES_IDEMPOTENCY_KEY
      : takesIdempotencyKey(route)
  )
    ? idempotent(run, roleReaderOf(route))
    : run;

  const chain = middy<ProxyEvent, ProxyResult, Error, EndpointContext>(lambdaHandler)
    .use(requestLifecycle(rows))
    .use(rateLimitHeaders())
    .use(errorShaping())
    .use(admissionFor(route))
    // The fallback reads neither the query nor the path: an unknown path is its 404 whatever it holds.
    .use(isFallback(route) ? [] : [requestTarget()])
    .use(actsInTeam(route) ? [teamScope(route)] : [])
    .use(
      (typeof BUNDLED_TAKES_BODY === 'boolean' ? BUNDLED_TAKES_BODY : takesBody(route))
        ? [jsonBody()]
        : isFallback(route)
          ? []
          : [noBody()],
    )
    .use(route.access === 'apiKey' && !isFallback(route) ? [auditTrail(route, roleReaderOf(route))] : []);
  // The deadline covers the whole chain, admission included: a store call still running when it
  // passes is aborted, and the error shaping answers the contract's 500 with its headers. The
  // store's calls are timed for the request's metrics. A row that holds requests open (a wait) gets
  // that long on top.
  const deadlineMs = config.REQUEST_DEADLINE_MS + holdsOpenMs(route);
  return (event, context) =>
    withDeadline(requestBudgetMs(deadlineMs, context.getRemainingTimeInMillis?.()), () =>
      withStoreTimings(() => withAuditScope(() => chain(event, context as EndpointContext))),
    );
}

/** An endpoint that requires an API key: the handler receives the authenticated caller. */
export function keyEndpoint<H extends KeyHandlerName>(
  handlerName: H,
  schemas: RequestSchemasOf<H>,
  handle: (input: KeyInput<RequestSchemasOf<H>, H>) => Promise<DocumentedReply<H>>,
): Handler {
  if (routeFor(handlerName).access !== 'apiKey') {
    throw new Error(`${handlerName} is not an apiKey route in shared/routes.ts`);
  }
  return build(handlerName, schemas, (context, input) => {
    const { caller } = context.state;
    if (!caller) throw new Error('apiKey route reached its handler without a caller');
    return handle({ ...input, caller });
  });
}

/** An endpoint without an API key (health, /auth/*, the docs, the backend fallback). */
export function openEndpoint<H extends OpenHandlerName>(
  handlerName: H,
  schemas: RequestSchemasOf<H>,
  handle: (input: OpenInput<RequestSchemasOf<H>, H>) => Promise<DocumentedReply<H>>,
): Handler {
  if (routeFor(handlerName).access === 'apiKey') {
    throw new Error(`${handlerName} is an apiKey route in shared/routes.ts: use keyEndpoint`);
  }
  return build(handlerName, schemas, (_context, input) => handle(input));
}
