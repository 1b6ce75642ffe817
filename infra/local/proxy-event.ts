import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteMatch } from './router.ts';

// Builds the event API Gateway's REST proxy integration sends to Lambda (see
// ../shared/fixtures/apigw-rest-proxy-event.json), so handlers run locally exactly as deployed.

export interface IncomingRequest {
  method: string;
  /** Path and query of the request target (see request-target.ts). */
  target: URL;
  /** Node's `rawHeaders`: name, value, name, value... with the client's casing. */
  rawHeaders: string[];
  body: Buffer;
  sourceIp: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (value: number): string => String(value).padStart(2, '0');

/** `22/Nov/2026:09:15:42 +0000`, API Gateway's requestTime format. */
export function requestTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

// Maps without a prototype: a client may send a header or parameter named `__proto__`.
const emptyMap = <T>(): Record<string, T> => Object.create(null);

function headerMaps(rawHeaders: string[]) {
  const headers = emptyMap<string>();
  const multiValueHeaders = emptyMap<string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    const value = rawHeaders[i + 1] ?? '';
    headers[name] = value; // API Gateway keeps the last value in `headers`
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  return { headers, multiValueHeaders };
}

function queryMaps(search: URLSearchParams) {
  const single = emptyMap<string>();
  const multi = emptyMap<string[]>();
  for (const [name, value] of search) {
    single[name] = value;
    multi[name] = [...(multi[name] ?? []), value];
  }
  const any = Object.keys(single).length > 0;
  return { queryStringParameters: any ? single : null, multiValueQueryStringParameters: any ? multi : null };
}

function bodyOf(body: Buffer): { body: string | null; isBase64Encoded: boolean } {
  if (body.byteLength === 0) return { body: null, isBase64Encoded: false };
  if (isUtf8(body)) return { body: body.toString('utf8'), isBase64Encoded: false };
  return { body: body.toString('base64'), isBase64Encoded: true };
}

export function buildProxyEvent(
  request: IncomingRequest,
  match: RouteMatch,
  now = Date.now(),
): APIGatewayProxyEvent {
  const url = request.target;
  const { headers, multiValueHeaders } = headerMaps(request.rawHeaders);
  const host = Object.entries(headers).find(([name]) => name.toLowerCase() === 'host')?.[1] ?? 'localhost';
  const userAgent =
    Object.entries(headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? null;
  return {
    resource: match.resource,
    path: match.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    ...queryMaps(url.searchParams),
    pathParameters: match.pathParameters,
    stageVariables: null,
    requestContext: {
      resourceId: 'local',
      resourcePath: match.resource,
      httpMethod: request.method,
      extendedRequestId: randomUUID(),
      requestTime: requestTime(now),
      path: url.pathname,
      accountId: '000000000000',
      protocol: 'HTTP/1.1',
      stage: match.stage,
      domainPrefix: host.split('.')[0] ?? host,
      requestTimeEpoch: now,
      requestId: randomUUID(),
      identity: {
        cognitoIdentityPoolId: null,
        accountId: null,
        cognitoIdentityId: null,
        caller: null,
        sourceIp: request.sourceIp,
        principalOrgId: null,
        accessKey: null,
        cognitoAuthenticationType: null,
        cognitoAuthenticationProvider: null,
        userArn: null,
        userAgent,
        user: null,
        apiKey: null,
        apiKeyId: null,
        clientCert: null,
      },
      domainName: host,
      apiId: 'local',
      authorizer: null,
    },
    // A body that is not UTF-8 text is passed as bytes, as API Gateway passes binary bodies, so the
    // function sees what was sent instead of text with replacement characters in it.
    ...bodyOf(request.body),
  };
}
