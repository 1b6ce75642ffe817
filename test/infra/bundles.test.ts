import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeFunction } from '../../infra/endpoint-function.ts';
import { buildProxyEvent } from '../../infra/local/proxy-event.ts';
import { matchRequest } from '../../infra/local/router.ts';
import { tables } from '../../shared/db/tables.ts';
import { type Route, routes } from '../../shared/routes.ts';
import { synthesizedAssembly } from '../support/synthesized-stack.ts';

// The bundles `cdk deploy` ships are what Lambda runs, not the sources the other suites load.
// This suite synthesizes the stack with real esbuild bundling and invokes every bundle in a fresh
// Node process as Lambda would (CommonJS `require`, then `handler(event, context)`), with exactly
// the environment the template gives that function, against the test run's DynamoDB Local. The
// bundles sit in a temporary folder with no node_modules above them: every package they use must
// be inside the bundle.

const run = promisify(execFile);

interface FunctionResource {
  Type: string;
  Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } };
  Metadata?: Record<string, string>;
}

const deployed = new Map<string, { bundle: string; variables: Record<string, unknown> }>();

beforeAll(async () => {
  const assembly = await synthesizedAssembly();
  const outdir = assembly.directory;
  const template = assembly.getStackByName('PlatformStack').template as {
    Resources: Record<string, FunctionResource>;
  };
  for (const resource of Object.values(template.Resources)) {
    const asset = resource.Metadata?.['aws:asset:path'];
    if (resource.Type !== 'AWS::Lambda::Function' || !asset || !resource.Properties.Description) continue;
    deployed.set(resource.Properties.Description, {
      bundle: join(outdir, asset, 'index.js'),
      variables: resource.Properties.Environment?.Variables ?? {},
    });
  }
}, 300_000);

/** The template's variables with local values: table references become the local table names. */
function environmentOf(variables: Record<string, unknown>): Record<string, string> {
  const localNames = new Map<string, string>(
    Object.values(tables).map((table) => [table.envVar, table.localName]),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
    LOG_LEVEL: 'silent',
  };
  const fixed: Record<string, string> = {
    CURSOR_SECRET: 'bundle-test-secret',
    // Never reached: every probe is refused before its handler runs.
    WEBHOOK_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/000000000000/bundle-test',
  };
  for (const name of Object.keys(variables)) {
    const local = fixed[name] ?? localNames.get(name);
    if (!local) throw new Error(`The template sets ${name}, which this test cannot give a local value`);
    env[name] = local;
  }
  return env;
}

/** A request to the route without a key, and what a client must get back. */
function probe(route: Route): {
  method: string;
  path: string;
  body: string;
  status: number;
  error?: string;
  contentType?: string;
} {
  const concrete = route.path
    .replace('{id}', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A')
    .replace('{proxy+}', 'no/such/path');
  const path = route.api === 'platform' ? `/v1${concrete}` : concrete;
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const body = method === 'POST' ? '{}' : '';
  if (route.access === 'apiKey') return { method, path, body, status: 401, error: 'unauthorized' };
  if (route.handler === 'health') return { method, path, body, status: 200 };
  if (route.handler === 'docs') {
    const contentType = route.path === '/openapi.json' ? 'application/json' : 'text/';
    return { method, path, body, status: 200, contentType };
  }
  if (route.method === 'ANY') return { method, path, body, status: 404, error: 'not_found' };
  return { method, path, body, status: 400, error: 'validation_error' };
}

async function invoke(bundle: string, env: Record<string, string>, event: unknown) {
  const script = `
    const { handler } = require(${JSON.stringify(bundle)});
    const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10000 };
    handler(${JSON.stringify(event)}, context).then((result) => console.log(JSON.stringify(result)));`;
  // The docs renderer's answer is 1.7 MB of JavaScript.
  const { stdout } = await run(process.execPath, ['-e', script], { env, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
}

describe.each(
  routes.map((route, index): [string, Route, number] => [
    `${route.method} ${route.path} (${route.api})`,
    route,
    index,
  ]),
)('the bundle that serves %s', (_name, route, index) => {
  it('loads and answers with only the environment its template gives it', async () => {
    const function_ = deployed.get(describeFunction(route.handler));
    if (!function_) throw new Error(`No function in the template for ${route.method} ${route.path}`);
    const request = probe(route);
    const event = buildProxyEvent(
      {
        method: request.method,
        target: new URL(`http://localhost${request.path}`),
        rawHeaders: [
          'Content-Type',
          'application/json',
          'Host',
          'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
        ],
        body: Buffer.from(request.body),
        // One address per route: each keyless probe counts in its address's bucket (20 a window).
        sourceIp: `203.0.113.${index + 1}`,
      },
      matchRequest(request.method, request.path),
    );
    const result = await invoke(function_.bundle, environmentOf(function_.variables), event);
    expect(result.statusCode).toBe(request.status);
    expect(result.headers['X-Request-Id']).toBe(event.requestContext.requestId);
    if (request.error) expect(JSON.parse(result.body)).toMatchObject({ error: request.error });
    if (route.access === 'apiKey') expect(result.headers['X-RateLimit-Limit']).toBe('20');
    if (request.contentType) {
      expect(result.headers['Content-Type']).toContain(request.contentType);
      expect(result.body.length).toBeGreaterThan(0);
    }
  }, 30_000);
});

// A message of zod-openapi's own: the generator (and the classic zod it brings) must stay out of every
// bundle but the docs function's, whose cold start alone pays for it.
const GENERATOR_MARKER = 'Failed to unwrap ZodObject from type';

it('keeps the OpenAPI generator in the docs function alone', () => {
  const withGenerator = [...deployed]
    .filter(([, function_]) => readFileSync(function_.bundle, 'utf8').includes(GENERATOR_MARKER))
    .map(([description]) => description);
  expect(withGenerator).toEqual([describeFunction('docs')]);
});
