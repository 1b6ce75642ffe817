import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { EndpointContext, ProxyEvent, ProxyResult } from '#shared/http/types.ts';

// Events for unit tests of the middleware, built from a REST proxy event API Gateway sent (the
// team's reference, ../shared/fixtures, kept in test/fixtures): a test states only what differs
// from it, and what it does not state is what API Gateway really sends.

const fixture: ProxyEvent = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/apigw-rest-proxy-event.json'), 'utf8'),
);

export interface EventOptions {
  method?: string;
  /** The API Gateway resource (`/projects/{id}`); `path` defaults to it. */
  resource?: string;
  path?: string;
  /** Headers on top of the fixture's, which carry no `authorization` here unless given. */
  headers?: Record<string, string>;
  body?: string | null;
  isBase64Encoded?: boolean;
  pathParameters?: Record<string, string> | null;
  query?: Record<string, string> | null;
  sourceIp?: string;
  /** API Gateway's request id; a fresh one by default, as every request has. */
  requestId?: string;
}

/** The fixture event with the given differences; header values appear in both header maps. */
export function proxyEvent(options: EventOptions = {}): ProxyEvent {
  const base = structuredClone(fixture);
  const { authorization: _fixtureKey, ...fixtureHeaders } = base.headers;
  const headers = { ...fixtureHeaders, ...options.headers } as Record<string, string>;
  const method = options.method ?? base.httpMethod;
  const resource = options.resource ?? base.resource;
  const path = options.path ?? (options.resource === undefined ? base.path : resource);
  return {
    ...base,
    resource,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: options.query === undefined ? null : options.query,
    multiValueQueryStringParameters:
      options.query == null
        ? null
        : Object.fromEntries(Object.entries(options.query).map(([name, value]) => [name, [value]])),
    pathParameters: options.pathParameters === undefined ? base.pathParameters : options.pathParameters,
    body: options.body ?? null,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: {
      ...base.requestContext,
      resourcePath: resource,
      httpMethod: method,
      path: `/${base.requestContext.stage}${path}`,
      requestId: options.requestId ?? randomUUID(),
      identity: { ...base.requestContext.identity, sourceIp: options.sourceIp ?? '203.0.113.7' },
    },
  };
}

/** A source address no other test uses, for the per-address buckets (2001:db8::/32 is for documentation). */
export const uniqueSourceIp = (): string =>
  `2001:db8:${randomUUID()
    .replace(/-/g, '')
    .slice(0, 24)
    .replace(/(.{4})(?!$)/g, '$1:')}`;

/**
 * A Lambda context without `getRemainingTimeInMillis`, so that middy arms no timeout of its own.
 * `state` is what requestLifecycle would have opened, for chains that test a middleware without it.
 */
export function endpointContext(event: ProxyEvent): EndpointContext {
  const context: Omit<Context, 'getRemainingTimeInMillis'> = {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'unit-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:unit-test',
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/unit-test',
    logStreamName: 'unit-test',
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  return {
    ...context,
    state: {
      requestId: event.requestContext.requestId,
      sourceIp: event.requestContext.identity.sourceIp,
      startedAt: Date.now(),
    },
  } as EndpointContext;
}

type Middleware = MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext>;
export type TestHandler = (event: ProxyEvent, context: EndpointContext) => Promise<ProxyResult>;

/** What a handler answers when a test does not care: 200 with a small JSON body. */
export const okHandler: TestHandler = async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"ok":true}',
});

/**
 * Runs `event` through a middy chain of exactly these middlewares (outermost first) around
 * `handler`, as shared/http/endpoint.ts builds it, and returns the result with the context the
 * chain saw.
 */
export async function runChain(
  middlewares: Middleware[],
  event: ProxyEvent,
  handler: TestHandler = okHandler,
): Promise<{ result: ProxyResult; context: EndpointContext }> {
  const context = endpointContext(event);
  const chain = middy<ProxyEvent, ProxyResult, Error, EndpointContext>(handler).use(middlewares);
  const result = await chain(event, context);
  return { result, context };
}

/** The parsed JSON body of a result. */
export const bodyOf = (result: ProxyResult): unknown => JSON.parse(result.body);
