import { type ApiGroup, endpointsOf, fallbackOf, type Route, stageNames } from '#shared/routes.ts';

// Routes a local URL the way API Gateway would: `/v1/...` to the platform API (its stage `v1`),
// everything else to the backend API. A request that no row serves goes to its group's fallback
// with the resource API Gateway would report: the matched path when only the method is wrong,
// `/{proxy+}` when the path is unknown. Path parameters are handed over as the client sent them,
// percent-escapes and all, as a REST API does (the endpoint decodes them once:
// shared/http/input/path-parameters.ts).

export const PLATFORM_STAGE = stageNames.platform;
const BACKEND_STAGE = stageNames.backend;

export interface RouteMatch {
  api: ApiGroup;
  route: Route;
  stage: string;
  /** API Gateway's `resource`: the path template that matched. */
  resource: string;
  /** API Gateway's `path`: the request path below the stage. */
  path: string;
  pathParameters: Record<string, string> | null;
}

const segmentsOf = (path: string): string[] => path.split('/').filter((segment) => segment !== '');

function matchTemplate(template: string, segments: string[]): Record<string, string> | undefined {
  const parts = segmentsOf(template);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = Object.create(null);
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] ?? '';
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params[name] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}

function splitStage(pathname: string): { api: ApiGroup; stage: string; path: string } {
  const [first, ...rest] = segmentsOf(pathname);
  if (first === PLATFORM_STAGE) return { api: 'platform', stage: PLATFORM_STAGE, path: `/${rest.join('/')}` };
  return { api: 'backend', stage: BACKEND_STAGE, path: pathname || '/' };
}

export function matchRequest(method: string, pathname: string): RouteMatch {
  const { api, stage, path } = splitStage(pathname);
  const segments = segmentsOf(path);
  const hasParams = (params: Record<string, string>) => (Object.keys(params).length > 0 ? params : null);

  let pathMatched: string | undefined;
  for (const route of endpointsOf(api)) {
    const params = matchTemplate(route.path, segments);
    if (!params) continue;
    if (route.method === method)
      return { api, route, stage, resource: route.path, path, pathParameters: hasParams(params) };
    pathMatched ??= route.path;
  }
  const fallback = fallbackOf(api);
  if (pathMatched) {
    const params = matchTemplate(pathMatched, segments) ?? {};
    return { api, route: fallback, stage, resource: pathMatched, path, pathParameters: hasParams(params) };
  }
  if (segments.length === 0)
    return { api, route: fallback, stage, resource: '/', path: '/', pathParameters: null };
  return {
    api,
    route: fallback,
    stage,
    resource: fallback.path,
    path,
    pathParameters: { proxy: segments.join('/') },
  };
}
