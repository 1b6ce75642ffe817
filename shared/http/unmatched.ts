import { MethodNotAllowedError } from '#shared/http/answers/http-errors.ts';
import { NO_SUCH_ENDPOINT } from '#shared/model/error-catalogue.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import type { ApiGroup } from '#shared/route-types.ts';
import { endpointsOf } from '#shared/routes.ts';

// What a fallback needs of the route table: the methods each path of its group serves. In a Lambda
// bundle that map is compiled in (the stack defines BUNDLED_PATH_METHODS, infra/api/endpoint-function.ts)
// and esbuild folds the `typeof` below, so the table itself (30 KB, a tenth of the bundle) stays out,
// as it does from every other function (shared/http/own-rows.ts). Elsewhere it comes from the table.

declare const BUNDLED_PATH_METHODS: string | undefined;

/** The name the stack defines, for infra/api/endpoint-function.ts. */
export const BUNDLED_PATH_METHODS_DEFINE = 'BUNDLED_PATH_METHODS';

/** Each concrete path of `api` with the methods its rows serve, in table order. */
export function pathMethodsOf(api: ApiGroup): Record<string, string[]> {
  const methods: Record<string, string[]> = {};
  for (const route of endpointsOf(api)) methods[route.path] = [...(methods[route.path] ?? []), route.method];
  return methods;
}

/** The compiled-in map, parsed once at load; undefined outside a Lambda bundle. */
const bundledPathMethods: Record<string, string[]> | undefined =
  typeof BUNDLED_PATH_METHODS === 'string' ? JSON.parse(BUNDLED_PATH_METHODS) : undefined;

/**
 * The fallback's answer for a request no row served: 405 with `Allow` when the resource is one of
 * the group's paths (so only the method was wrong), 404 otherwise. `resource` is the API Gateway
 * resource the request matched (`/projects/{id}`, or `/{proxy+}` for unknown paths).
 */
export function unmatched(api: ApiGroup, resource: string): never {
  // The same `typeof` again, not `bundledPathMethods ??`: only a test esbuild can fold leaves the table out.
  const byPath =
    typeof BUNDLED_PATH_METHODS === 'string'
      ? (bundledPathMethods as Record<string, string[]>)
      : pathMethodsOf(api);
  const allow = Object.hasOwn(byPath, resource) ? (byPath[resource] ?? []) : [];
  if (allow.length > 0) throw new MethodNotAllowedError(allow);
  throw new NotFoundError(NO_SUCH_ENDPOINT);
}
