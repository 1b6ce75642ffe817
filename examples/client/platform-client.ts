// A typed fetch client for the platform API. The types come from its OpenAPI document:
//   npx openapi-typescript http://localhost:3000/openapi.json --default-non-nullable false -o platform-api.d.ts
// (`--default-non-nullable false` keeps fields with a server-side default, like productionBranch,
// optional in request bodies.) Paths, parameters, bodies and replies below are all checked by tsc.
import type { paths } from './platform-api.js';

type Method = 'get' | 'post';
/** The paths that have an operation for `method`. */
type PathWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends undefined ? never : P;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type RequestBody<O> = O extends { requestBody: infer Body } ? Json<Body> : never;
type PathParams<O> = O extends { parameters: { path: infer Params } } ? Params : Record<string, never>;
/** What the operation answers when it succeeds (200 or 201). */
type Success<O> = O extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201>]> : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

/** A client for one of the API's two servers: `{base_url}` (…/v1) or `{backend_url}`. */
export function platformClient(serverUrl: string, apiKey?: string) {
  async function send(method: string, template: string, params: Record<string, string>, body?: unknown) {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init = { method, headers, body: body === undefined ? null : JSON.stringify(body) };
    const response = await fetch(`${serverUrl}${path}`, init);
    const json: unknown = await response.json();
    if (!response.ok) throw new ApiError(response.status, json);
    return json;
  }
  return {
    get: async <P extends PathWith<'get'>>(path: P, params: PathParams<Operation<P, 'get'>>) =>
      (await send('GET', path, params)) as Success<Operation<P, 'get'>>,
    post: async <P extends PathWith<'post'>>(path: P, body: RequestBody<Operation<P, 'post'>>) =>
      (await send('POST', path, {}, body)) as Success<Operation<P, 'post'>>,
  };
}

/** Log in, create a project, deploy it and read the deployment back. */
export async function deployWeb(backendUrl: string, baseUrl: string, email: string, password: string) {
  const { apiKey } = await platformClient(backendUrl).post('/auth/login', { email, password });
  const api = platformClient(baseUrl, apiKey);
  const project = await api.post('/projects', { name: 'web', repository: 'acme/web' });
  const deployment = await api.post('/deployments', { projectId: project.id, branch: 'main' });
  const current = await api.get('/deployments/{id}', { id: deployment.id });
  return current.status; // 'queued' | 'building' | 'ready' | 'error' | 'canceled'
}
