import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '#shared/model/caller.ts';
import type { RateLimitState } from '#shared/model/rate-limit.ts';

export type ProxyEvent = APIGatewayProxyEvent;
export type ProxyResult = APIGatewayProxyResult;

/** What the middleware learns about one request, shared by the chain and handed to the handler. */
export interface RequestState {
  requestId: string;
  sourceIp: string;
  startedAt: number;
  /** `performance.now()` at the start: the metrics' durations, which a test's pinned clock leaves alone. */
  startedAtMonotonic: number;
  /** How long admission took (endpoint.ts times it), for the metrics. */
  admissionMs?: number;
  caller?: Caller;
  rateLimit?: RateLimitState;
  /** The parsed JSON body, once json-body has read it. */
  body?: unknown;
}

export type EndpointContext = Context & { state: RequestState };

export type EndpointRequest = Request<ProxyEvent, ProxyResult, Error, EndpointContext>;

/**
 * What a handler returns: the chain turns it into the API Gateway result. The body is sent as JSON,
 * or as it is when the reply names its own media type (the docs page and its files).
 */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; mediaType?: undefined }
  | {
      status: number;
      body: string;
      headers?: Record<string, string>;
      mediaType: string;
      /** Written as they come, after the headers, by a streaming function (shared/http/answers/streaming.ts). */
      events?: AsyncIterable<string>;
    };
