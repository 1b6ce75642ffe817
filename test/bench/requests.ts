import type { APIGatewayProxyEvent } from 'aws-lambda';
import { buildProxyEvent } from '#infra/local/proxy-event.ts';
import { matchRequest, PLATFORM_STAGE } from '#infra/local/router.ts';
import { consumerHandlers } from '#shared/consumers.ts';
import { actsInTeam, type Route, routes } from '#shared/routes.ts';

// One representative, successful request per function, as API Gateway would send it: an admin's
// key on every keyed route (it may call them all), ids of things that exist, and a fresh email or
// source address where the /auth/* throttles count per email or address. The admin owns a shared
// team, which the team's own routes name; the other versioned routes act in it or in the admin's
// personal team (BENCH_TEAM), which cost differently: a shared team's membership is read.

/** Where the versioned routes act: the admin's personal team (no `teamId`) or a shared team of theirs. */
export type BenchTeam = 'personal' | 'shared';

/** BENCH_TEAM=shared: the bench's requests act in a shared team; by default in the personal team. */
export const benchTeam = (): BenchTeam => (process.env.BENCH_TEAM === 'shared' ? 'shared' : 'personal');

export interface BenchData {
  /** The admin's key for requests that keep it (not logout or key revocation). */
  adminKey: string;
  projectId: string;
  deploymentId: string;
  /** A webhook of the admin's on a public address (a documentation one: nothing is delivered). */
  webhookId: string;
  /** Registered users, one per round: login allows only a few attempts per email and window. */
  loginUsers: { email: string; password: string }[];
  /** Distinguishes this run's new emails from earlier runs' (DynamoDB Local may keep a file). */
  runId: string;
  /** A shared team the admin owns: what the team's own routes (`/teams/{teamId}...`) name. */
  teamId: string;
  /** Where the other versioned routes act: in `teamId` (named by `?teamId=`) or the personal team. */
  actsIn: BenchTeam;
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

/**
 * What one request may use up: the key it is made with, a key it may revoke, a deployment it may
 * change, a project, webhook, team, member or invitation it may delete.
 */
export interface Disposables {
  key: string;
  spareKeyId: string;
  deploymentId?: string;
  projectId?: string;
  webhookId?: string;
  /** A ready deployment of `projectId` that was production before the current one. */
  earlierProductionId?: string;
  /** A variable of `projectId`, for the request that changes or deletes one. */
  variableId?: string;
  /** A custom domain of `projectId` (for the routes that name one), or a free name (for the one that adds one). */
  domainName?: string;
  /**
   * A new team of the admin's, instead of the data's: one to delete, or one to act in (a webhook's
   * creation in a shared team: a team holds at most 10).
   */
  teamId?: string;
  /** A member of the data's team (a developer), for the request that changes or removes one. */
  memberId?: string;
  /** An open invitation of the data's team, for the request that revokes one. */
  invitationId?: string;
  /** The code of an invitation into the data's team, for its invited user (whose `key` this is). */
  invitationCode?: string;
  /** A token of the data's team, for the request that revokes one. */
  tokenId?: string;
}

/** The query that names the team a route acts in, when it is not the caller's personal team. */
export function teamQueryOf(route: Route, data: BenchData, keys?: Disposables): Record<string, string> {
  const team = keys?.teamId ?? (data.actsIn === 'shared' ? data.teamId : undefined);
  return actsInTeam(route) && route.team !== 'path' && team !== undefined ? { teamId: team } : {};
}

/** The URL of the bench's webhooks: https on a documentation address (RFC 5737), never called. */
export const BENCH_WEBHOOK_URL = 'https://203.0.113.80/bench';

/** The custom resource's function (infra/custom-resources/key-signing-public-key-resource.ts), by its description. */
const CUSTOM_RESOURCE = /^Custom resource: /;

/**
 * An event a function that no route runs answers without a call, so that its first invocation
 * times its cold start: an empty batch for a consumer (`<area>: <handler>`), a Delete for the
 * custom resource. Undefined for a function that is not ours (CDK's provider framework).
 */
export function noOpEventOf(name: string): { label: string; event: unknown; expected: string[] } | undefined {
  const consumer = consumerHandlers().find((handler) => name.endsWith(`: ${handler}`));
  if (consumer) {
    return { label: `${consumer} (empty batch)`, event: { Records: [] }, expected: ['batch', 'done'] };
  }
  if (CUSTOM_RESOURCE.test(name)) {
    const event = { RequestType: 'Delete', PhysicalResourceId: 'key-signing-public-key' };
    return { label: 'key-signing-public-key (Delete)', event, expected: ['Delete'] };
  }
  return undefined;
}

/**
 * What an invocation answered, in one word: a status, `batch` (a batch answered without failures),
 * `done` (a consumer that answers nothing: its batch fails only by throwing), or `Delete` (the
 * custom resource's answer).
 */
export function outcomeOf(result: unknown): string {
  if (result === undefined || result === null) return 'done';
  const answer = result as {
    statusCode?: number;
    batchItemFailures?: unknown[];
    PhysicalResourceId?: string;
  };
  if (answer.statusCode !== undefined) return String(answer.statusCode);
  if (answer.batchItemFailures) return answer.batchItemFailures.length === 0 ? 'batch' : 'batch failures';
  if (answer.PhysicalResourceId) return 'Delete';
  return 'unknown';
}

/** Whether the route changes the deployment it names (so each invocation needs its own). */
export const changesDeployment = (route: Route): boolean =>
  route.method === 'POST' && route.path.startsWith('/deployments/{id}');

/** Whether the route deletes what it names (a project or a webhook: each invocation needs its own). */
export const deletesOwnThing = (route: Route): boolean =>
  route.method === 'DELETE' && (route.path === '/projects/{id}' || route.path === '/webhooks/{id}');

/** Whether the route moves a project's production (each invocation needs its own project with a history). */
export const movesProduction = (route: Route): boolean =>
  route.method === 'POST' &&
  (route.path === '/projects/{id}/promote' || route.path === '/projects/{id}/rollback');

/** Whether the route changes a project's variables (each invocation gets a project with one of its own). */
export const changesEnvironment = (route: Route): boolean =>
  route.method !== 'GET' && route.path.startsWith('/projects/{id}/env');

/** Whether the route adds a custom domain (each invocation gets a project and a name of its own). */
export const addsDomain = (route: Route): boolean =>
  route.method === 'POST' && route.path === '/projects/{id}/domains';

/** Whether the route names a custom domain (each invocation gets a project with one of its own). */
export const namesDomain = (route: Route): boolean => route.path.startsWith('/projects/{id}/domains/{name}');

/** Whether only a `build` key may make the request (a deployment's build environment). */
export const needsBuildKey = (route: Route): boolean => route.scope === 'build';

/**
 * Whether the route creates a webhook: it must act in a new team, the new user's personal one or a
 * new shared team (10 subscriptions a team).
 */
export const createsWebhook = (route: Route): boolean =>
  route.method === 'POST' && route.path === '/webhooks';

/** Whether the route deletes the team it names (each invocation needs its own). */
export const deletesTeam = (route: Route): boolean =>
  route.method === 'DELETE' && route.path === '/teams/{teamId}';

/** Whether the route changes or removes a member (each invocation gets one of its own). */
export const changesMember = (route: Route): boolean => route.path === '/teams/{teamId}/members/{userId}';

/** Whether the route revokes an invitation (each invocation gets one of its own). */
export const revokesInvitation = (route: Route): boolean =>
  route.method === 'DELETE' && route.path === '/teams/{teamId}/invitations/{id}';

/** Whether the route revokes a team token (each invocation gets one of its own). */
export const revokesTeamToken = (route: Route): boolean =>
  route.method === 'DELETE' && route.path === '/teams/{teamId}/tokens/{id}';

/** Whether the route accepts an invitation: its caller is the invited user, with a code of their own. */
export const acceptsInvitation = (route: Route): boolean =>
  route.method === 'POST' && route.path === '/invitations/accept';

export function requestFor(route: Route, data: BenchData, round: number, keys?: Disposables): BenchRequest {
  const ids: Record<string, string> = {
    '/deployments': keys?.deploymentId ?? data.deploymentId,
    '/keys': keys?.spareKeyId ?? 'key_unknown',
    '/projects': keys?.projectId ?? data.projectId,
    '/webhooks': keys?.webhookId ?? data.webhookId,
    '/teams': (revokesTeamToken(route) ? keys?.tokenId : keys?.invitationId) ?? 'inv_unknown',
  };
  const id = ids[`/${route.path.split('/')[1]}`] ?? data.projectId;
  // A wait for the state the deployment is in answers at once: what is timed is the cold start.
  const queries: Record<string, Record<string, string>> = { '/deployments/{id}/wait': { status: 'queued' } };
  const query = new URLSearchParams({ ...queries[route.path], ...teamQueryOf(route, data, keys) });
  const concrete = `${route.path
    .replace('{id}', id)
    .replace('{envId}', keys?.variableId ?? 'env_unknown')
    .replace('{name}', keys?.domainName ?? 'unknown.example.com')
    .replace('{teamId}', keys?.teamId ?? data.teamId)
    .replace('{userId}', keys?.memberId ?? 'usr_unknown')
    .replace('{proxy+}', 'no/such/path')}${query.size > 0 ? `?${query}` : ''}`;
  const path = route.api === 'platform' ? `/${PLATFORM_STAGE}${concrete}` : concrete;
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const key = route.access === 'apiKey' ? (keys?.key ?? data.adminKey) : undefined;
  const login = data.loginUsers[round % data.loginUsers.length];
  const bodies: Record<string, unknown> = {
    '/projects': { name: 'bench' },
    '/deployments': { projectId: data.projectId },
    '/keys': { name: 'bench' },
    '/deployments/{id}/events': { status: 'building' },
    '/deployments/{id}/logs': {
      lines: [{ text: 'bench: building' }, { text: 'bench: done', stream: 'stderr' }],
    },
    '/projects/{id}/promote': { deploymentId: keys?.earlierProductionId ?? data.deploymentId },
    '/projects/{id}/rollback': {},
    '/projects/{id}/env': { key: 'BENCH_ADDED', value: 'bench value', targets: ['preview'] },
    '/auth/register': { email: `bench-${data.runId}-${round}@example.test`, password: 'bench passphrase' },
    '/auth/login': login,
    '/webhooks': { url: BENCH_WEBHOOK_URL, events: ['deployment.ready'] },
    '/projects/{id}/domains': { name: keys?.domainName ?? `bench-${data.runId}-${round}.example.com` },
    '/teams': { name: 'bench' },
    '/teams/{teamId}/invitations': {
      email: `bench-invited-${data.runId}-${round}@example.test`,
      role: 'developer',
    },
    '/invitations/accept': { code: keys?.invitationCode ?? 'inv_unknown' },
    // Limited to the project the requests name where it is the team's.
    '/teams/{teamId}/tokens': {
      name: 'bench',
      scopes: ['read'],
      expiresInDays: 1,
      ...(data.actsIn === 'shared' ? { projectIds: [data.projectId] } : {}),
    },
  };
  const patches: Record<string, unknown> = {
    '/projects/{id}': { name: `bench ${round}` },
    '/projects/{id}/env/{envId}': { value: `bench value ${round}` },
    '/webhooks/{id}': { description: `bench ${round}` },
    '/teams/{teamId}': { name: `bench ${round}` },
    // The member joined as a developer.
    '/teams/{teamId}/members/{userId}': { role: 'viewer' },
  };
  const replaced = { variables: [{ key: 'BENCH', value: `bench value ${round}` }] };
  const body =
    method === 'POST'
      ? (bodies[route.path] ?? {})
      : method === 'PATCH'
        ? patches[route.path]
        : method === 'PUT'
          ? replaced
          : undefined;
  const expected: Record<string, number[]> = {
    ANY: [404],
    POST: [200, 201, 202, 204],
    PUT: [200],
    DELETE: [200, 204],
  };
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
  const target = new URL(`http://localhost${request.path}`);
  return buildProxyEvent(
    {
      method: request.method,
      target,
      rawHeaders: headers,
      body: Buffer.from(body),
      sourceIp: `198.51.${Math.floor(round / 250) % 250}.${(round % 250) + 1}`,
    },
    matchRequest(request.method, target.pathname),
  );
}
