import type { TableKey } from './db/tables.ts';

// The route table: the one list of endpoints. The CDK stack builds one function and one API Gateway
// method per row, granting exactly the tables the row names; the local gateway routes by the same
// rows; test/infra walks them. Adding an endpoint is one row here plus one file in functions/.

export type ApiGroup = 'platform' | 'backend';

/**
 * - `apiKey`: `Authorization: Bearer <key>` required; rate limited per key (per source address
 *   while no valid key is shown).
 * - `authThrottled`: no key; rate limited per source address (the /auth/* endpoints).
 * - `public`: no key, no rate limit (health checks).
 */
export type Access = 'apiKey' | 'authThrottled' | 'public';

export type TableAccess = 'read' | 'write';

export interface Route {
  api: ApiGroup;
  /** `ANY` only on a group's fallback row, which answers 404 and 405 for everything unmatched. */
  method: 'GET' | 'POST' | 'ANY';
  /** API Gateway resource path, relative to the group's root (the platform group's stage is `v1`). */
  path: string;
  /** The Lambda entry point: `functions/<handler>.ts`. */
  handler: string;
  access: Access;
  /** Tables the function may touch, and how; the stack grants exactly these. */
  tables: Partial<Record<TableKey, TableAccess>>;
  /** Lambda memory; CPU scales with it, so password hashing gets more. */
  memoryMb?: number;
}

/** Every `apiKey` route counts requests on the key's item, or per source address without one. */
const keyed = { apiKeys: 'write', rateLimits: 'write' } as const;
const throttled = { rateLimits: 'write' } as const;

export const FALLBACK_PATH = '/{proxy+}';

// biome-ignore format: one row per line reads as a table
export const routes: readonly Route[] = [
  // Versioned API ({base_url} = .../v1)
  { api: 'platform', method: 'GET', path: '/projects', handler: 'list-projects', access: 'apiKey', tables: { ...keyed, projects: 'read' } },
  { api: 'platform', method: 'POST', path: '/projects', handler: 'create-project', access: 'apiKey', tables: { ...keyed, projects: 'write' } },
  { api: 'platform', method: 'GET', path: '/projects/{id}', handler: 'get-project', access: 'apiKey', tables: { ...keyed, projects: 'read' } },
  { api: 'platform', method: 'GET', path: '/projects/{id}/deployments', handler: 'list-project-deployments', access: 'apiKey', tables: { ...keyed, projects: 'read', deployments: 'read' } },
  { api: 'platform', method: 'POST', path: '/deployments', handler: 'create-deployment', access: 'apiKey', tables: { ...keyed, projects: 'read', deployments: 'write' } },
  { api: 'platform', method: 'GET', path: '/deployments/{id}', handler: 'get-deployment', access: 'apiKey', tables: { ...keyed, deployments: 'read' } },
  { api: 'platform', method: 'ANY', path: FALLBACK_PATH, handler: 'platform-fallback', access: 'apiKey', tables: keyed },

  // Backend group ({backend_url})
  { api: 'backend', method: 'GET', path: '/health', handler: 'health', access: 'public', tables: { apiKeys: 'read' } },
  { api: 'backend', method: 'POST', path: '/auth/register', handler: 'register', access: 'authThrottled', tables: { ...throttled, users: 'write' }, memoryMb: 1024 },
  { api: 'backend', method: 'POST', path: '/auth/login', handler: 'login', access: 'authThrottled', tables: { ...throttled, users: 'write', apiKeys: 'write' }, memoryMb: 1024 },
  { api: 'backend', method: 'GET', path: '/api/v1/users', handler: 'list-users', access: 'apiKey', tables: { ...keyed, users: 'read' } },
  { api: 'backend', method: 'ANY', path: FALLBACK_PATH, handler: 'backend-fallback', access: 'public', tables: {} },
];

export const isFallback = (route: Route): boolean => route.path === FALLBACK_PATH;

/** The rows of one group that serve a concrete path (everything but the fallback). */
export const endpointsOf = (api: ApiGroup): Route[] =>
  routes.filter((route) => route.api === api && !isFallback(route));

export const fallbackOf = (api: ApiGroup): Route => {
  const route = routes.find((candidate) => candidate.api === api && isFallback(candidate));
  if (!route) throw new Error(`No fallback route for the ${api} API`);
  return route;
};
