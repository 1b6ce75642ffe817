import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { describeRoute } from '../../infra/endpoint-function.ts';
import { PlatformStack } from '../../infra/platform-stack.ts';
import { routes } from '../../shared/routes.ts';

// The bundles `cdk deploy` ships are what Lambda runs, not the sources the other suites load.
// This suite synthesizes the stack with real esbuild bundling and invokes a few bundles in fresh
// Node processes, as Lambda would (CommonJS `require`, then `handler(event, context)`), against
// the test run's DynamoDB Local. The bundles sit in a temporary folder outside the repository, with
// no node_modules above them: every package they use has to be inside the bundle.

const run = promisify(execFile);
const outdir = mkdtempSync(join(tmpdir(), 'platform-bundles-'));
let bundleOf: (handler: string) => string;

beforeAll(() => {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new PlatformStack(app, 'PlatformStack');
  const template = app.synth().getStackByName('PlatformStack').template as {
    Resources: Record<
      string,
      { Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }
    >;
  };
  const assets = new Map<string, string>();
  for (const resource of Object.values(template.Resources)) {
    const asset = resource.Metadata?.['aws:asset:path'];
    if (resource.Type === 'AWS::Lambda::Function' && asset && resource.Properties.Description) {
      assets.set(resource.Properties.Description, join(outdir, asset, 'index.js'));
    }
  }
  bundleOf = (handler) => {
    const route = routes.find((candidate) => candidate.handler === handler);
    const file = route && assets.get(describeRoute(route));
    if (!file) throw new Error(`No bundle for ${handler}`);
    return file;
  };
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/apigw-rest-proxy-event.json'), 'utf8'),
);

async function invoke(
  bundle: string,
  event: unknown,
): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  const script = `
    const { handler } = require(${JSON.stringify(bundle)});
    const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10000 };
    handler(${JSON.stringify(event)}, context).then((result) => console.log(JSON.stringify(result)));`;
  const { stdout } = await run(process.execPath, ['-e', script], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

describe('the deployed bundles', () => {
  it('answer GET /health from DynamoDB', async () => {
    const event = {
      ...fixture,
      resource: '/health',
      path: '/health',
      pathParameters: null,
      headers: {},
      multiValueHeaders: {},
    };
    const result = await invoke(bundleOf('health'), event);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ status: 'ok', checks: { database: 'ok' } });
    expect(result.headers['X-Request-Id']).toBe(fixture.requestContext.requestId);
  }, 30_000);

  it('authenticate and count like the sources: the fixture event with its fake key gets the contract 401', async () => {
    const result = await invoke(bundleOf('get-project'), fixture);
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body)).toEqual({
      error: 'unauthorized',
      message: 'A valid API key is required: send Authorization: Bearer <API_KEY>',
    });
    expect(result.headers['X-RateLimit-Limit']).toBeDefined();
  }, 30_000);
});
