import { randomUUID } from 'node:crypto';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// A team token made without `production`, on every request that reaches production, as
// docs/teams.md ("Team tokens") says: it may not create, redeploy, promote, roll back to, report on,
// cancel, append to the build log of, or read the build environment of production deployments, nor
// write production variables, nor change a project's production branch (403). Each request
// is also made with a token of both targets, which succeeds (so a refusal is the target's, not the
// role's or the scope's), and, where there is one, its preview twin with the preview-only token.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

interface Request {
  method: string;
  path: string;
  json?: unknown;
}

async function send(key: string, { method, path, json }: Request) {
  return call(`${gateway.baseUrl}${path}`, { method, key, ...(json === undefined ? {} : { json }) });
}

let owner: TestPerson;
let teamId: string;
/** Tokens of the team with every scope: one for preview deployments only, one for both targets. */
let previewOnly: string;
let everyTarget: string;

/** A request of the owner's in the team that must succeed; its body. */
async function owners(method: string, path: string, json?: unknown) {
  const response = await send(owner.key, { method, path: `${path}?teamId=${teamId}`, json });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body as { id: string; apiKey: string; target: string };
}

const project = async (): Promise<string> => (await owners('POST', '/projects', { name: 'targets' })).id;

/** A queued deployment of the project; production (its production branch) unless `branch` says otherwise. */
async function deployment(projectId: string, branch?: string): Promise<string> {
  const made = await owners('POST', '/deployments', { projectId, ...(branch ? { branch } : {}) });
  expect(made.target).toBe(branch ? 'preview' : 'production');
  return made.id;
}

/** A deployment built and ready: a production one becomes production (automatic promotion). */
async function ready(projectId: string, branch?: string): Promise<string> {
  const id = await deployment(projectId, branch);
  for (const status of ['building', 'ready']) await owners('POST', `/deployments/${id}/events`, { status });
  return id;
}

async function variable(projectId: string, targets: string[]): Promise<string> {
  const key = `V_${randomUUID().slice(0, 8).toUpperCase()}`;
  return (await owners('POST', `/projects/${projectId}/env`, { key, value: 'v', targets })).id;
}

const newKey = (): string => `K_${randomUUID().slice(0, 8).toUpperCase()}`;

/** Each request that reaches production, made ready on a project of its own; its preview twin if any. */
const CASES: Readonly<
  Record<string, { production: () => Promise<Request>; preview?: () => Promise<Request> }>
> = {
  'POST /deployments of the production branch (production by default)': {
    production: async () => ({ method: 'POST', path: '/deployments', json: { projectId: await project() } }),
    preview: async () => ({
      method: 'POST',
      path: '/deployments',
      json: { projectId: await project(), branch: 'feature' },
    }),
  },
  'POST /deployments of another branch with target production': {
    production: async () => ({
      method: 'POST',
      path: '/deployments',
      json: { projectId: await project(), branch: 'feature', target: 'production' },
    }),
    preview: async () => ({
      method: 'POST',
      path: '/deployments',
      json: { projectId: await project(), target: 'preview' },
    }),
  },
  'POST /deployments redeploying a production deployment (redeployOf)': {
    production: async () => ({
      method: 'POST',
      path: '/deployments',
      json: { redeployOf: await deployment(await project()) },
    }),
    preview: async () => ({
      method: 'POST',
      path: '/deployments',
      json: { redeployOf: await deployment(await project(), 'feature') },
    }),
  },
  'POST /projects/{id}/promote': {
    production: async () => {
      const id = await project();
      await ready(id);
      return {
        method: 'POST',
        path: `/projects/${id}/promote`,
        json: { deploymentId: await ready(id, 'feature') },
      };
    },
  },
  'POST /projects/{id}/rollback': {
    production: async () => {
      const id = await project();
      await ready(id);
      await ready(id);
      return { method: 'POST', path: `/projects/${id}/rollback`, json: {} };
    },
  },
  // The production branch chooses what the next production deployment ships: production's field.
  'PATCH /projects/{id} changing the production branch': {
    production: async () => ({
      method: 'PATCH',
      path: `/projects/${await project()}`,
      json: { productionBranch: 'release' },
    }),
    preview: async () => ({
      method: 'PATCH',
      path: `/projects/${await project()}`,
      json: { name: 'renamed' },
    }),
  },
  'POST /projects/{id}/env with a production target': {
    production: async () => ({
      method: 'POST',
      path: `/projects/${await project()}/env`,
      json: { key: newKey(), value: 'v', targets: ['production'] },
    }),
    preview: async () => ({
      method: 'POST',
      path: `/projects/${await project()}/env`,
      json: { key: newKey(), value: 'v', targets: ['preview'] },
    }),
  },
  'POST /projects/{id}/env with every target (no targets given)': {
    production: async () => ({
      method: 'POST',
      path: `/projects/${await project()}/env`,
      json: { key: newKey(), value: 'v' },
    }),
  },
  'PUT /projects/{id}/env with a production variable': {
    production: async () => ({
      method: 'PUT',
      path: `/projects/${await project()}/env`,
      json: { variables: [{ key: newKey(), value: 'v', targets: ['production'] }] },
    }),
    preview: async () => ({
      method: 'PUT',
      path: `/projects/${await project()}/env`,
      json: { variables: [{ key: newKey(), value: 'v', targets: ['preview'] }] },
    }),
  },
  'PUT /projects/{id}/env replacing a set that holds a production variable': {
    production: async () => {
      const id = await project();
      await variable(id, ['production']);
      return {
        method: 'PUT',
        path: `/projects/${id}/env`,
        json: { variables: [{ key: newKey(), value: 'v', targets: ['preview'] }] },
      };
    },
    preview: async () => {
      const id = await project();
      await variable(id, ['preview']);
      return {
        method: 'PUT',
        path: `/projects/${id}/env`,
        json: { variables: [{ key: newKey(), value: 'v', targets: ['preview'] }] },
      };
    },
  },
  'PATCH /projects/{id}/env/{envId} of a production variable': {
    production: async () => {
      const id = await project();
      return {
        method: 'PATCH',
        path: `/projects/${id}/env/${await variable(id, ['production'])}`,
        json: { value: 'w' },
      };
    },
    preview: async () => {
      const id = await project();
      return {
        method: 'PATCH',
        path: `/projects/${id}/env/${await variable(id, ['preview'])}`,
        json: { value: 'w' },
      };
    },
  },
  'PATCH /projects/{id}/env/{envId} moving a variable into production': {
    production: async () => {
      const id = await project();
      return {
        method: 'PATCH',
        path: `/projects/${id}/env/${await variable(id, ['preview'])}`,
        json: { targets: ['preview', 'production'] },
      };
    },
    preview: async () => {
      const id = await project();
      return {
        method: 'PATCH',
        path: `/projects/${id}/env/${await variable(id, ['preview'])}`,
        json: { targets: ['preview', 'development'] },
      };
    },
  },
  'DELETE /projects/{id}/env/{envId} of a production variable': {
    production: async () => {
      const id = await project();
      return { method: 'DELETE', path: `/projects/${id}/env/${await variable(id, ['production'])}` };
    },
    preview: async () => {
      const id = await project();
      return { method: 'DELETE', path: `/projects/${id}/env/${await variable(id, ['preview'])}` };
    },
  },
  // A report of `ready` on a production deployment promotes it (automatic promotion): reporting on
  // one, cancelling one and writing its build log are production's to a token, as creating one is.
  'POST /deployments/{id}/events on a production deployment': {
    production: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project())}/events`,
      json: { status: 'building' },
    }),
    preview: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project(), 'feature')}/events`,
      json: { status: 'building' },
    }),
  },
  'POST /deployments/{id}/cancel of a production deployment': {
    production: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project())}/cancel`,
    }),
    preview: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project(), 'feature')}/cancel`,
    }),
  },
  'POST /deployments/{id}/logs of a production deployment': {
    production: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project())}/logs`,
      json: { lines: [{ text: 'step 1' }] },
    }),
    preview: async () => ({
      method: 'POST',
      path: `/deployments/${await deployment(await project(), 'feature')}/logs`,
      json: { lines: [{ text: 'step 1' }] },
    }),
  },
  'GET /deployments/{id}/build-env of a production deployment': {
    production: async () => ({
      method: 'GET',
      path: `/deployments/${await deployment(await project())}/build-env`,
    }),
    preview: async () => ({
      method: 'GET',
      path: `/deployments/${await deployment(await project(), 'feature')}/build-env`,
    }),
  },
};

beforeAll(async () => {
  owner = await newPerson('Owner', { scopes: ['read', 'write', 'build'], rateLimit: 100_000 });
  teamId = await newTeam(gateway.baseUrl, owner, 'Targets');
  const token = async (targets?: string[]) =>
    (
      await owners('POST', `/teams/${teamId}/tokens`, {
        name: 'ci',
        scopes: ['read', 'write', 'build'],
        expiresInDays: 1,
        ...(targets === undefined ? {} : { targets }),
      })
    ).apiKey;
  [previewOnly, everyTarget] = await Promise.all([token(['preview']), token()]);
});

describe('a team token without production', () => {
  it.each(Object.keys(CASES))('%s: 403; allowed to a token with production', async (name) => {
    const { production, preview } = CASES[name] ?? {};
    if (!production) throw new Error(name);
    const request = await production();
    const refused = await send(previewOnly, request);
    expect([name, refused.status, refused.body]).toEqual([
      name,
      403,
      { error: 'forbidden', message: expect.stringContaining('not for production deployments') },
    ]);
    // The refusal changed nothing: the same request still succeeds once, for a token with production.
    const allowed = await send(everyTarget, request);
    expect([name, allowed.status]).toEqual([name, expect.any(Number)]);
    expect(allowed.status).toBeLessThan(300);
    if (preview) {
      const twin = await send(previewOnly, await preview());
      expect([name, 'preview', twin.status]).toEqual([name, 'preview', expect.any(Number)]);
      expect(twin.status).toBeLessThan(300);
    }
  });
});
