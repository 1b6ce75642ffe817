import { personalTeamIdOf } from '#shared/model/teams.ts';
import { operations, stageNames } from '#shared/routes.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// A body nested thousands of levels deep (issue 22): every route that takes a body answers it with
// the contract's 400 naming the limit, instead of running out of stack (a 500). That the check walks
// each value once is json-depth.test.ts's to show (a million levels); the time each route took is
// printed for a reader, not judged: a first request to a route's function includes loading it, and a
// CI run saw 1.4 s for that on a busy machine.

const LEVELS = 9_000;
const deepBody = `{"name":${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}}`;

let gateway: TestGateway;
let key: string;
/** The caller's personal team: a team's own routes reach their body check only for its members. */
let teamId: string;
beforeAll(async () => {
  gateway = await startGateway();
  // Every scope: a route that needs `build` (a log append) must reach its body check too.
  const caller = await newCaller({ rateLimit: 1_000, scopes: ['read', 'write', 'build'] });
  key = caller.key;
  teamId = personalTeamIdOf(caller.userId);
  // Untimed: the first request through a fresh gateway pays for loading and compiling the chain.
  await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'warm-up' } });
});
afterAll(() => gateway.close());

const bodyRoutes = operations().filter((route) => route.request?.body !== undefined);

it('covers every route that takes a body', () => {
  expect(bodyRoutes.map(({ method, path }) => `${method} ${path}`)).toEqual(
    expect.arrayContaining([
      'POST /keys',
      'PATCH /projects/{id}',
      'POST /webhooks',
      'POST /deployments/{id}/events',
    ]),
  );
});

it.each(bodyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  'answers %s with a body nested 9,000 levels deep: 400 naming the limit',
  async (_name, route) => {
    const root = route.api === 'platform' ? gateway.baseUrl : gateway.backendUrl;
    expect(root.endsWith(route.api === 'platform' ? `/${stageNames.platform}` : '')).toBe(true);
    const started = performance.now();
    const path = route.path.replace('{id}', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A').replace('{teamId}', teamId);
    const response = await call(`${root}${path}`, {
      method: route.method,
      ...(route.access === 'apiKey' ? { key } : {}),
      headers: { 'Content-Type': 'application/json' },
      rawBody: deepBody,
    });
    const ms = performance.now() - started;
    process.stdout.write(`${route.method} ${route.path}: ${LEVELS} levels answered in ${ms.toFixed(1)} ms\n`);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        error: 'validation_error',
        field: 'body',
        message: 'Request body nests objects and arrays more than 32 levels deep',
      },
    });
  },
);
