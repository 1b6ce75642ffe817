import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteMatch } from './router.ts';

// Builds the event API Gateway's REST proxy integration sends to Lambda (see
// ../shared/fixtures/apigw-rest-proxy-event.json), so handlers run locally exactly as deployed.

export interface IncomingRequest {
  method: string;
  /** Path and query as sent, e.g. `/v1/projects?limit=5`. */
  url: string;
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

export function buildProxyEvent(
  request: IncomingRequest,
  match: RouteMatch,
  now = Date.now(),
): APIGatewayProxyEvent {
  const url = new URL(request.url, 'http://localhost');
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
    body: request.body.byteLength > 0 ? request.body.toString('utf8') : null,
    isBase64Encoded: false,
  };
}
