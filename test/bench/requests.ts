import type { APIGatewayProxyEvent } from 'aws-lambda';
import { buildProxyEvent } from '../../infra/local/proxy-event.ts';
import { matchRequest, PLATFORM_STAGE } from '../../infra/local/router.ts';
import { type Route, routes } from '../../shared/routes.ts';

// One representative, successful request per function, as API Gateway would send it: an admin's
// key on every keyed route (it may call them all), ids of things that exist, and a fresh email or
// source address where the /auth/* throttles count per email or address.

export interface BenchData {
  /** The admin's key for requests that keep it (not logout or key revocation). */
  adminKey: string;
  projectId: string;
  deploymentId: string;
  /** Registered users, one per round: login allows only a few attempts per email and window. */
  loginUsers: { email: string; password: string }[];
  /** Distinguishes this run's new emails from earlier runs' (DynamoDB Local may keep a file). */
  runId: string;
}

export interface BenchRequest {
  method: string;
  /** From the API's root: `/v1/...` for the platform group. */
  path: string;
  body?: unknown;
  key?: string;
  /** Statuses that mean it did what it should. */
  expected: number[];
}

/** The first row a function serves, from its description (`GET /docs, GET /docs/init.js (backend)`). */
export function routeOfFunction(name: string): Route | undefined {
  const match = / \((\w+)\)$/.exec(name);
  const first = name.slice(0, match?.index).split(', ')[0];
  return routes.find((route) => route.api === match?.[1] && `${route.method} ${route.path}` === first);
}

/** What one request may use up: the key it is made with, a key it may revoke, a deployment it may change. */
export interface Disposables {
  key: string;
  spareKeyId: string;
  deploymentId?: string;
}

/** Whether the route changes the deployment it names (so each invocation needs its own). */
export const changesDeployment = (route: Route): boolean =>
  route.method === 'POST' && route.path.startsWith('/deployments/{id}');

export function requestFor(route: Route, data: BenchData, round: number, keys?: Disposables): BenchRequest {
  const ids: Record<string, string> = {
    '/deployments': keys?.deploymentId ?? data.deploymentId,
    '/keys': keys?.spareKeyId ?? 'key_unknown',
  };
  const id = ids[`/${route.path.split('/')[1]}`] ?? data.projectId;
  const concrete = route.path.replace('{id}', id).replace('{proxy+}', 'no/such/path');
  const path = route.api === 'platform' ? `/${PLATFORM_STAGE}${concrete}` : concrete;
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const key = route.access === 'apiKey' ? (keys?.key ?? data.adminKey) : undefined;
  const login = data.loginUsers[round % data.loginUsers.length];
  const bodies: Record<string, unknown> = {
    '/projects': { name: 'bench' },
    '/deployments': { projectId: data.projectId },
    '/keys': { name: 'bench' },
    '/deployments/{id}/events': { status: 'building' },
    '/auth/register': { email: `bench-${data.runId}-${round}@example.test`, password: 'bench passphrase' },
    '/auth/login': login,
  };
  const body = method === 'POST' ? (bodies[route.path] ?? {}) : undefined;
  const expected: Record<string, number[]> = { ANY: [404], POST: [200, 201, 204], DELETE: [200, 204] };
  return { method, path, body, key, expected: expected[route.method] ?? [200] };
}

/** The proxy event of a request; each round comes from another address, so no address throttle counts it twice. */
export function eventFor(request: BenchRequest, round: number): APIGatewayProxyEvent {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const headers = [
    'Host',
    'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
    'Content-Type',
    'application/json',
  ];
  if (request.key) headers.push('Authorization', `Bearer ${request.key}`);
  return buildProxyEvent(
    {
      method: request.method,
      target: new URL(`http://localhost${request.path}`),
      rawHeaders: headers,
      body: Buffer.from(body),
      sourceIp: `198.51.${Math.floor(round / 250) % 250}.${(round % 250) + 1}`,
    },
    matchRequest(request.method, request.path),
  );
}
