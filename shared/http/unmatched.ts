import { NO_SUCH_ENDPOINT } from '#shared/model/error-catalogue.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import { type ApiGroup, endpointsOf } from '#shared/routes.ts';
import { MethodNotAllowedError } from './http-errors.ts';

/**
 * The fallback's answer for a request no row served: 405 with `Allow` when the resource is one of
 * the group's paths (so only the method was wrong), 404 otherwise. `resource` is the API Gateway
 * resource the request matched (`/projects/{id}`, or `/{proxy+}` for unknown paths).
 */
export function unmatched(api: ApiGroup, resource: string): never {
  const allow = endpointsOf(api)
    .filter((route) => route.path === resource)
    .map((route) => route.method);
  if (allow.length > 0) throw new MethodNotAllowedError(allow);
  throw new NotFoundError(NO_SUCH_ENDPOINT);
}
