import { fc, it } from '@fast-check/jest';
import { endpointsOf, routes } from '#shared/routes.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// Whatever a client sends (any method, target, headers and body, against every route in the table),
// the answer is JSON in the contract's shape, never a 5xx, never a hang, and on the versioned API it
// carries the rate-limit headers. Seeded: a failure prints the seed and the shrunk request, and the
// same seed replays it. `FUZZ_RUNS=5000 npm run jest -- http-surface` runs longer than `npm test` does.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const ANSWER_WITHIN_MS = 5_000;

let gateway: TestGateway;
let key: string;
let projectId: string;

beforeAll(async () => {
  gateway = await startGateway();
  ({ key } = await newCaller({ rateLimit: 1_000_000 }));
  const project = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'fuzz' } });
  projectId = (project.body as { id: string }).id;
});
afterAll(() => gateway.close());

const prefixOf = (api: string): string => (api === 'platform' ? '/v1' : '');

// Path parameters: a real id, ids of the right shape but unknown, and text that is no id at all.
const pathValue = fc.oneof(
  fc.constant('<project>'),
  fc.constant('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'),
  fc.constant('%ED%A0%80'), // a lone surrogate, percent-encoded
  fc.constant('..'),
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.string({ minLength: 65, maxLength: 300 }).map(encodeURIComponent),
);

// Every row of the route table, with its parameters filled in, and paths no row serves.
const knownPath = fc
  .constantFrom(...routes.filter((route) => endpointsOf(route.api).includes(route)))
  .chain((route) =>
    fc
      .array(pathValue, { minLength: 4, maxLength: 4 })
      .map((values) => `${prefixOf(route.api)}${route.path.replace(/\{\w+\}/g, () => values.pop() ?? 'x')}`),
  );
const anyPath = fc
  .array(fc.oneof(fc.constantFrom('v1', 'projects', 'deployments', 'auth', 'api', ''), fc.webSegment()), {
    maxLength: 5,
  })
  .map((segments) => `/${segments.join('/')}`);

const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'cursor', 'status', '__proto__'), fc.string({ maxLength: 10 })),
      fc.oneof(
        fc.constantFrom('0', '1', '100', '101', '-1', '1e3', 'abc', '%ED%A0%80'),
        fc.string({ maxLength: 2000 }),
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));

const authorization = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constant('<key>'),
  fc.constant('bearer <key>'),
  fc.constant('Bearer plat_0000000000000000000000000000000000000000'),
  fc.string({ maxLength: 100 }).map((text) => `Bearer ${text}`),
  fc.string({ maxLength: 100 }),
);

const contentType = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/jsonx'),
  fc.string({ maxLength: 40 }),
);

const FIELDS = [
  'name',
  'repository',
  'productionBranch',
  'projectId',
  'branch',
  'email',
  'password',
  '__proto__',
];
const value = fc.oneof(
  fc.constant('<project>'),
  fc.string({ unit: 'binary', maxLength: 300 }), // lone surrogates included
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ minLength: 60_000, maxLength: 70_000 }),
);
const body = fc.oneof(
  fc.constant<string | Uint8Array | undefined>(undefined),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 }).map((fields) => JSON.stringify(fields)),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }), // bytes that are mostly not UTF-8
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  path: fc.oneof({ weight: 4, arbitrary: knownPath }, { weight: 1, arbitrary: anyPath }),
  query,
  authorization,
  contentType,
  body,
  extraHeader: fc.tuple(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), fc.stringMatching(/^[ -~]{0,200}$/)),
});

type FuzzRequest = typeof request extends fc.Arbitrary<infer R> ? R : never;

const withFixtures = (text: string): string =>
  text.replaceAll('<project>', projectId).replaceAll('<key>', key);

function send(r: FuzzRequest): Promise<JsonResponse> {
  const headers: Record<string, string> = { [r.extraHeader[0]]: r.extraHeader[1] };
  if (r.authorization !== undefined) headers.Authorization = withFixtures(r.authorization);
  if (r.contentType !== undefined) headers['Content-Type'] = r.contentType;
  const hasBody = r.method !== 'GET' && r.body !== undefined;
  return call(`${gateway.backendUrl}${withFixtures(r.path)}${r.query}`, {
    method: r.method,
    headers,
    ...(hasBody ? { rawBody: typeof r.body === 'string' ? withFixtures(r.body) : r.body } : {}),
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
}

const ERROR_CODES = [
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limit_exceeded',
];

/** The contract's shape of an error body: `{error, message, field?}`, or `{error, retryAfter}` for 429. */
function expectContractError(response: JsonResponse): void {
  const errorBody = response.body as Record<string, unknown>;
  expect(ERROR_CODES).toContain(errorBody.error);
  if (response.status === 429) {
    expect(Object.keys(errorBody).sort()).toEqual(['error', 'retryAfter']);
    return;
  }
  expect(typeof errorBody.message).toBe('string');
  for (const name of Object.keys(errorBody)) expect(['error', 'message', 'field']).toContain(name);
  if ('field' in errorBody) expect(typeof errorBody.field).toBe('string');
}

describe('the HTTP surface under arbitrary requests', () => {
  it.prop([request], { numRuns: RUNS, seed: SEED, endOnFailure: true })(
    'answers JSON in the contract shape, never a 5xx, with rate-limit headers on /v1',
    async (r) => {
      const response = await send(r);
      expect(response.status).toBeLessThan(500);
      // The docs page and its files are HTML, CSS and JavaScript (call() checks every media type
      // against the OpenAPI document); everything else is JSON.
      const docsFile = response.status === 200 && /^\/docs(\/|$)/.test(withFixtures(r.path));
      if (!docsFile) expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      if (response.status >= 400) expectContractError(response);
      if (withFixtures(r.path).startsWith('/v1/') || withFixtures(r.path) === '/v1') {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(response.headers.get(name)).toMatch(/^[0-9]+$/);
        }
      }
    },
  );
});
