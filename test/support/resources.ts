import { call } from './http.ts';

// What a test needs to exist before it asks its question, made through the API as a client makes
// it (each answer checked), so that the suites do not each write their own.

/** A new project of the key's user (`name: web` unless the body says otherwise). */
export async function newProject<T = { id: string }>(
  baseUrl: string,
  key: string,
  json: Record<string, unknown> = { name: 'web' },
): Promise<T> {
  const response = await call(`${baseUrl}/projects`, { method: 'POST', key, json });
  expect(response.status).toBe(201);
  return response.body as T;
}

/** A new queued deployment, of a new project's production branch. */
export async function newDeployment(
  baseUrl: string,
  key: string,
): Promise<{ id: string; projectId: string }> {
  const { id: projectId } = await newProject(baseUrl, key);
  const response = await call(`${baseUrl}/deployments`, { method: 'POST', key, json: { projectId } });
  expect(response.status).toBe(201);
  return { id: (response.body as { id: string }).id, projectId };
}

/** Another key of the same user with the given scopes, made through POST /v1/keys. */
export async function keyWith(baseUrl: string, key: string, scopes: string[]): Promise<string> {
  const response = await call(`${baseUrl}/keys`, { method: 'POST', key, json: { name: 'scoped', scopes } });
  expect(response.status).toBe(201);
  return (response.body as { apiKey: string }).apiKey;
}

const builders = new Map<string, Promise<string>>();

/** A `build` key of the same user (made once per key): what appends a deployment's log. */
export function builderOf(baseUrl: string, key: string): Promise<string> {
  const known = builders.get(key);
  if (known) return known;
  const made = keyWith(baseUrl, key, ['build']);
  builders.set(key, made);
  return made;
}
