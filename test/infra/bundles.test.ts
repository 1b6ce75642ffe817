import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { SourceMapPayload } from 'node:module';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { splitPrelude } from '#infra/local/lambda-streaming.ts';
import { buildProxyEvent } from '#infra/local/proxy-event.ts';
import { matchRequest } from '#infra/local/router.ts';
import { resolveStackTrace } from '#infra/operations/source-maps.ts';
import { appendLines } from '#shared/db/deployments/logs.ts';
import { applyTransition, putDeployment } from '#shared/db/deployments/writes.ts';
import { putProject } from '#shared/db/projects.ts';
import { tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE, publishedKeysOf } from '#shared/domain/key-identity.ts';
import { createUser } from '#shared/domain/users.ts';
import { newId } from '#shared/model/ids.ts';
import { publishedDocumentPath } from '#shared/openapi/published-document.ts';
import { type Route, routes, takesBody, takesIdempotencyKey } from '#shared/routes.ts';
import { secrets } from '#shared/runtime/secrets.ts';
import { localTableNameOf } from '../support/lambda-bundles.ts';
import { type StandInSecrets, startSecretsExtension } from '../support/secrets-extension.ts';
import { startSqsStandIn } from '../support/sqs-stand-in.ts';
import { flattenedTemplate } from '../support/stack-templates.ts';
import { synthesizedAssembly } from '../support/synthesized-stack.ts';
import { newCaller } from '../support/users.ts';

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

// Secrets come from a stand-in of the extension, by the ARN the template gives (a Ref to the secret,
// made into an ARN here). The key-signing seed is the test run's own, so keys issued in this process
// are genuine to the bundles, which verify them with the public key the template gives them.
let extension: StandInSecrets;
const arnOf = (logicalId: string): string =>
  `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${logicalId}`;
const secretArns = new Map<string, string>();

beforeAll(async () => {
  extension = await startSecretsExtension();
  const assembly = await synthesizedAssembly();
  const outdir = assembly.directory;
  // The route functions are in nested stacks: their templates merged into the root's.
  const template = flattenedTemplate(
    outdir,
    assembly.getStackByName('PlatformStack').templateFile,
  ) as unknown as {
    Resources: Record<string, FunctionResource>;
  };
  for (const resource of Object.values(template.Resources)) {
    const asset = resource.Metadata?.['aws:asset:path'];
    if (resource.Type !== 'AWS::Lambda::Function' || !asset || !resource.Properties.Description) continue;
    const bundle = join(outdir, asset, 'index.js');
    // CDK's custom-resource provider framework ships its own code, not one of our bundles.
    if (!existsSync(bundle)) continue;
    deployed.set(resource.Properties.Description, {
      bundle,
      variables: resource.Properties.Environment?.Variables ?? {},
    });
  }
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type === 'AWS::SecretsManager::Secret') secretArns.set(id, arnOf(id));
  }
  const seedArn = [...secretArns.values()].find((arn) => arn.includes('KeySigningSeed'));
  const cursorArn = [...secretArns.values()].find((arn) => arn.includes('CursorSecret'));
  if (!seedArn || !cursorArn) throw new Error('The template has no key-signing seed or cursor secret');
  extension.put(seedArn, process.env[secrets.keySigningSeed] ?? '');
  extension.put(cursorArn, 'cursor-key-1');
}, 300_000);

afterAll(() => extension.close());

/** The deployed function of a handler: its bundle and its template's variables. */
function deployedFunction(handler: string): { bundle: string; variables: Record<string, unknown> } {
  const function_ = deployed.get(describeFunction(handler));
  if (!function_) throw new Error(`No function in the template for ${handler}`);
  return function_;
}

/** The template's variables with local values: table references become the local table names. */
function environmentOf(variables: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
    LOG_LEVEL: 'silent',
  };
  for (const [name, value] of Object.entries(variables)) {
    const local = localValueOf(name, value);
    if (local === undefined)
      throw new Error(`The template sets ${name}, which this test cannot give a local value`);
    env[name] = local;
  }
  // What Lambda gives every function, and the extension wants back.
  env.AWS_SESSION_TOKEN = extension.sessionToken;
  return env;
}

function localValueOf(name: string, value: unknown): string | undefined {
  const tableName = localTableNameOf(name);
  if (tableName) return tableName;
  if (name === PUBLIC_KEYS_VARIABLE) return publishedKeysOf([process.env[secrets.keySigningSeed] ?? '']);
  if (name === 'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT') return String(extension.port);
  // Never reached: every probe is refused before its handler runs.
  if (name === 'WEBHOOK_QUEUE_URL') return 'https://sqs.eu-west-1.amazonaws.com/000000000000/bundle-test';
  // The docs function's {base_url}: the stack's platform URL, a documentation address here.
  if (name === 'PLATFORM_BASE_URL') return 'https://api.example.com/v1';
  if (name === 'ENVIRONMENT_KEY_ARN') return 'arn:aws:kms:eu-west-1:000000000000:key/bundle-test';
  const ref = (value as { Ref?: unknown }).Ref;
  if (name.endsWith('_ARN') && typeof ref === 'string') return secretArns.get(ref);
  // The extension's own settings are literals.
  return typeof value === 'string' ? value : undefined;
}

/** A new project of the user's, put straight into the store (this process is not a function); its id. */
async function storedProject(userId: string, name: string): Promise<string> {
  const now = new Date().toISOString();
  const id = newId('prj');
  await putProject(userId, {
    id,
    name,
    repository: null,
    productionBranch: 'main',
    production: null,
    autoPromotion: true,
    createdAt: now,
    updatedAt: now,
  });
  return id;
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

/** The API Gateway event of a request, as the local gateway builds it. */
function eventFor(
  method: string,
  path: string,
  options: { body?: string; key?: string; sourceIp?: string } = {},
) {
  const target = new URL(`http://localhost${path}`);
  return buildProxyEvent(
    {
      method,
      target,
      rawHeaders: [
        'Content-Type',
        'application/json',
        'Host',
        'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
        ...(options.key ? ['Authorization', `Bearer ${options.key}`] : []),
      ],
      body: Buffer.from(options.body ?? ''),
      sourceIp: options.sourceIp ?? '203.0.113.7',
    },
    matchRequest(method, target.pathname),
  );
}

/** A streaming function's bytes as its answer: the prelude's status and headers, then the body. */
interface StreamedAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const STAND_IN = join(import.meta.dirname, '..', '..', 'infra', 'local', 'lambda-streaming.ts');

/**
 * Invokes a streaming bundle as Lambda's runtime would: the stand-in for the runtime's `awslambda`
 * (the local gateway's) is put in place before the bundle loads, the handler writes to a stream, and
 * the bytes it wrote, prelude and all, come back as they were written.
 */
async function invokeStreaming(bundle: string, env: Record<string, string>, event: unknown) {
  const script = `
    const { Writable } = require('node:stream');
    import(${JSON.stringify(STAND_IN)}).then(async ({ installStreamingRuntime }) => {
      installStreamingRuntime();
      const { handler } = require(${JSON.stringify(bundle)});
      const chunks = [];
      const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(Buffer.from(chunk)); done(); } });
      const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 900000 };
      await handler(${JSON.stringify(event)}, stream, context);
      console.log(JSON.stringify({ bytes: Buffer.concat(chunks).toString('base64'), ended: stream.writableEnded }));
    });`;
  const { stdout } = await run(process.execPath, ['-e', script], { env, maxBuffer: 16 * 1024 * 1024 });
  const written = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { bytes: string; ended: boolean };
  const bytes = Buffer.from(written.bytes, 'base64');
  const split = splitPrelude(bytes);
  if (!split)
    throw new Error(`No prelude in what the bundle streamed: ${bytes.toString('utf8').slice(0, 200)}`);
  return {
    bytes,
    ended: written.ended,
    answer: {
      statusCode: split.metadata.statusCode,
      headers: split.metadata.headers,
      body: split.body.toString('utf8'),
    } satisfies StreamedAnswer,
  };
}

async function invoke(
  bundle: string,
  env: Record<string, string>,
  event: unknown,
  streams = false,
): Promise<StreamedAnswer> {
  if (streams) return (await invokeStreaming(bundle, env, event)).answer;
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
    const function_ = deployedFunction(route.handler);
    const request = probe(route);
    // One address per route: each keyless probe counts in its address's bucket (20 a window).
    const event = eventFor(request.method, request.path, {
      body: request.body,
      sourceIp: `203.0.113.${index + 1}`,
    });
    const result = await invoke(function_.bundle, environmentOf(function_.variables), event, route.streams);
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

// A message of zod-openapi's own: the generator (and the classic zod it brings) is in no bundle. The
// docs function serves the published document, shipped beside its bundle.
const GENERATOR_MARKER = 'Failed to unwrap ZodObject from type';

it('keeps the OpenAPI generator out of every bundle', () => {
  // The marker is zod-openapi's own text: were it reworded, this test would prove nothing.
  const generator = dirname(createRequire(import.meta.url).resolve('zod-openapi'));
  const sources = readdirSync(generator).filter((file) => file.endsWith('.cjs'));
  expect(sources.some((file) => readFileSync(join(generator, file), 'utf8').includes(GENERATOR_MARKER))).toBe(
    true,
  );
  const withGenerator = [...deployed]
    .filter(([, function_]) => readFileSync(function_.bundle, 'utf8').includes(GENERATOR_MARKER))
    .map(([description]) => description);
  expect(deployed.size).toBeGreaterThan(30);
  expect(withGenerator).toEqual([]);
});

// Each function's own rows are compiled into its bundle (shared/http/own-rows.ts), and a fallback's
// map of its group's paths to their methods (shared/http/unmatched.ts): the route table is in none.
it('bundles every function with only its own rows, and the route table into none', () => {
  const operationIds = routes.flatMap((route) => (route.operationId ? [route.operationId] : []));
  for (const handler of new Set(routes.map((route) => route.handler))) {
    const code = readFileSync(deployedFunction(handler).bundle, 'utf8');
    // A row as the table's minified literal, or as the JSON compiled in.
    const named = operationIds.filter(
      (id) => code.includes(`operationId:"${id}"`) || code.includes(`"operationId":"${id}"`),
    );
    const own = routes.filter((route) => route.handler === handler && route.operationId);
    expect({ handler, named }).toEqual({ handler, named: own.map((route) => route.operationId) });
  }
});

// Whether a function runs the idempotency of a platform POST, and the body parser, is compiled in
// beside its rows (shared/http/own-rows.ts): a function whose rows run neither carries neither.
it('carries the idempotency and the body parser only in the functions whose rows run them', () => {
  // Texts of the two parts' own (shared/http/idempotency/idempotent.ts, shared/http/input/json-body.ts).
  const parts = { idempotency: 'is still in progress; retry later', body: 'Request body is not valid JSON' };
  for (const handler of new Set(routes.map((route) => route.handler))) {
    const code = readFileSync(deployedFunction(handler).bundle, 'utf8');
    const row = routes.find((route) => route.handler === handler) as Route;
    expect({
      handler,
      idempotency: code.includes(parts.idempotency),
      body: code.includes(parts.body),
    }).toEqual({
      handler,
      idempotency: takesIdempotencyKey(row),
      body: takesBody(row),
    });
  }
  // Both kinds are among the functions, so the comparison above can fail either way.
  expect(routes.some(takesIdempotencyKey) && routes.some((route) => !takesBody(route))).toBe(true);
});

it("answers a known path's other method 405 with Allow from the map compiled into the fallback", async () => {
  const fallback = deployedFunction('backend-fallback');
  const result = await invoke(
    fallback.bundle,
    environmentOf(fallback.variables),
    eventFor('DELETE', '/auth/login', { sourceIp: '198.51.100.45' }),
  );
  expect(result.statusCode).toBe(405);
  expect(result.headers.Allow).toBe('POST');
  expect(JSON.parse(result.body)).toMatchObject({ error: 'method_not_allowed' });
});

it('serves the published OpenAPI document from beside the docs bundle', async () => {
  const docs = deployedFunction('docs');
  const result = await invoke(docs.bundle, environmentOf(docs.variables), eventFor('GET', '/openapi.json'));
  expect(result.statusCode).toBe(200);
  // As served, each server's default is where it was served from (functions/service/docs.ts): the request's
  // origin for {backend_url}, the stack's platform URL for {base_url}. Everything else is the file.
  const defaults = new Set<string>();
  const withoutDefaults = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (key, field) => {
      if (key !== 'default' || typeof field !== 'string' || !/^https?:/.test(field)) return field;
      defaults.add(field);
      return undefined;
    });
  expect(withoutDefaults(JSON.parse(result.body))).toEqual(
    withoutDefaults(JSON.parse(readFileSync(publishedDocumentPath(), 'utf8'))),
  );
  expect([...defaults].sort()).toEqual(
    expect.arrayContaining(['https://api.example.com/v1', expect.stringMatching(/execute-api/)]),
  );
});

// The queue path as Lambda runs it: the bundle's SQS sender (shared/webhooks/sqs.ts, the SDK's signer
// and HTTP handler) serializes, signs and checks the MD5 of each message against a stand-in that
// speaks SQS's JSON protocol on loopback.
it("enqueues a webhook's test ping on SQS through the client its bundle ships", async () => {
  const queue = await startSqsStandIn();
  try {
    const { key, userId } = await newCaller();
    const create = deployedFunction('create-webhook');
    const created = await invoke(
      create.bundle,
      environmentOf(create.variables),
      eventFor('POST', '/v1/webhooks', {
        key,
        body: JSON.stringify({ url: 'https://203.0.113.80/hooks', events: ['*'] }),
      }),
    );
    expect(created.statusCode).toBe(201);
    const webhookId = (JSON.parse(created.body) as { webhook: { id: string } }).webhook.id;

    const ping = deployedFunction('test-webhook');
    const env = {
      ...environmentOf(ping.variables),
      WEBHOOK_QUEUE_URL: queue.url,
      // What Lambda gives the role's credentials in: the SQS sender signs with them.
      AWS_ACCESS_KEY_ID: 'ASIABUNDLETEST',
      AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
    };
    const answered = await invoke(
      ping.bundle,
      env,
      eventFor('POST', `/v1/webhooks/${webhookId}/test`, { key }),
    );
    expect(answered.statusCode).toBe(202);
    const { messageId } = JSON.parse(answered.body) as { messageId: string };
    expect(queue.bodies.map((body) => JSON.parse(body))).toEqual([
      expect.objectContaining({ messageId, webhookId, ownerId: userId, type: 'ping' }),
    ]);
  } finally {
    await queue.close();
  }
}, 60_000);

describe('secrets, fetched by the bundles from the extension by ARN', () => {
  const bundleOf = (handler: string): { bundle: string; env: Record<string, string> } => {
    const function_ = deployedFunction(handler);
    return { bundle: function_.bundle, env: environmentOf(function_.variables) };
  };
  const send = async (
    handler: string,
    method: string,
    path: string,
    options: { body?: string; key?: string } = {},
  ) => {
    const { bundle, env } = bundleOf(handler);
    const result = await invoke(bundle, env, eventFor(method, path, options));
    return { status: result.statusCode, body: JSON.parse(result.body) as Record<string, unknown> };
  };

  it('login signs the key it issues with the seed it fetched, and a keyed bundle admits that key', async () => {
    const email = `bundle-${randomUUID()}@example.com`;
    await createUser({ email, password: 'correct horse battery', role: 'member', name: 'Bundle' });
    extension.asked();
    const login = await send('login', 'POST', '/auth/login', {
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    expect(
      extension.asked().some((asked) => asked.includes('KeySigningSeed') && asked.endsWith('AWSCURRENT')),
    ).toBe(true);
    const listed = await send('list-projects', 'GET', '/v1/projects', { key: String(login.body.apiKey) });
    expect(listed.status).toBe(200);
  }, 60_000);

  it('accepts a cursor signed before a rotation after it, and refuses one signed with an unknown key', async () => {
    const cursorArn = [...secretArns.values()].find((arn) => arn.includes('CursorSecret')) ?? '';
    const { userId, key } = await newCaller();
    for (const name of ['one', 'two', 'three']) await storedProject(userId, name);
    const first = await send('list-projects', 'GET', '/v1/projects?limit=1', { key });
    const cursor = String(first.body.nextCursor);
    expect(first.status).toBe(200);

    extension.put(cursorArn, 'cursor-key-2');
    const afterRotation = await send(
      'list-projects',
      'GET',
      `/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`,
      { key },
    );
    expect(afterRotation).toMatchObject({ status: 200, body: { projects: [{ name: 'two' }] } });

    const [payload] = cursor.split('.');
    const unknownKey = createHmac('sha256', 'a key nobody has')
      .update(`projects:${userId}\n${payload}`)
      .digest()
      .subarray(0, 16);
    const forged = `${payload}.${unknownKey.toString('base64url')}`;
    const refused = await send(
      'list-projects',
      'GET',
      `/v1/projects?limit=1&cursor=${encodeURIComponent(forged)}`,
      { key },
    );
    expect(refused).toMatchObject({ status: 400, body: { error: 'validation_error', field: 'cursor' } });

    // Two rotations on, the first key is gone too.
    extension.put(cursorArn, 'cursor-key-3');
    const stale = await send(
      'list-projects',
      'GET',
      `/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`,
      { key },
    );
    expect(stale).toMatchObject({ status: 400, body: { field: 'cursor' } });
  }, 60_000);
});

it("derives the verifying functions' public key from the seed it fetches, in the custom resource's bundle", async () => {
  const function_ = deployed.get('Custom resource: the public key of the key-signing seed');
  if (!function_) throw new Error('No public-key custom resource in the template');
  const env = environmentOf(function_.variables);
  const created = await invoke(function_.bundle, env, { RequestType: 'Create', ResourceProperties: {} });
  expect(created).toEqual({
    PhysicalResourceId: 'key-signing-public-key',
    Data: { PublicKeys: publishedKeysOf([process.env[secrets.keySigningSeed] ?? '']) },
  });
}, 30_000);

/** The line of `text` in a source file, 1-based, as a stack trace names it. */
function lineOf(file: string, text: string): number {
  const index = readFileSync(join(import.meta.dirname, '..', '..', file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${text} is not in ${file}`);
  return index + 1;
}

// The follow of a build log as Lambda runs it behind API Gateway's streaming integration: the bundle
// writes the prelude (status and headers as JSON, then eight NUL bytes), then the events, then ends.
it("streams a followed build log's events through the runtime's response stream", async () => {
  const { userId, key } = await newCaller();
  const now = new Date().toISOString();
  const projectId = await storedProject(userId, 'web');
  const id = newId('dpl');
  await putDeployment(userId, {
    id,
    projectId,
    branch: 'main',
    status: 'queued',
    target: 'production',
    createdAt: now,
    updatedAt: now,
  });
  await appendLines({
    ownerId: userId,
    deploymentId: id,
    head: { count: 0, bytes: 0 },
    lines: [{ at: now, stream: 'stdout', text: '> npm run build' }],
    bytes: 15,
    open: ['queued'],
  });
  await applyTransition(userId, { id }, { to: 'canceled', at: now });

  const logs = deployedFunction('list-deployment-logs');
  const { bytes, ended, answer } = await invokeStreaming(
    logs.bundle,
    environmentOf(logs.variables),
    eventFor('GET', `/v1/deployments/${id}/logs?follow=1`, { key }),
  );
  expect(ended).toBe(true);
  const prelude = bytes.subarray(0, bytes.indexOf(Buffer.alloc(8)));
  expect(JSON.parse(prelude.toString('utf8'))).toEqual({
    statusCode: 200,
    headers: expect.objectContaining({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Request-Id': expect.any(String),
      'X-RateLimit-Remaining': '99',
    }),
  });
  expect(answer.body).toBe(
    // A build already over: its lines, then its final status, then the end.
    [
      `id: 1\nevent: log\ndata: {"seq":1,"at":"${now}","stream":"stdout","text":"> npm run build"}\n\n`,
      `event: status\ndata: {"status":"canceled","at":"${now}"}\n\n`,
      'event: end\ndata: {"status":"canceled"}\n\n',
    ].join(''),
  );
}, 30_000);

describe('a stack trace from a shipped bundle', () => {
  const repoRoot = join(import.meta.dirname, '..', '..');
  let bundle = '';
  let trace = '';

  // The forced error: a table variable missing from the template's environment fails the cold
  // start in shared/runtime/variables.ts, called by the chain's builder (shared/http/endpoint.ts).
  beforeAll(async () => {
    const function_ = deployedFunction('get-project');
    bundle = function_.bundle;
    const env = environmentOf(function_.variables);
    delete env[tables.projects.envVar];
    const stderr = await run(process.execPath, ['-e', `require(${JSON.stringify(bundle)})`], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    // The frames: Node also prints the offending line of the bundle, one very long line.
    trace = stderr
      .split('\n')
      .filter((line) => /^\s+at |^Error: /.test(line))
      .join('\n');
  });

  it('names the function that threw, not a minified name', () => {
    expect(trace).toContain(`Error: Missing required environment variable ${tables.projects.envVar}`);
    expect(trace).toMatch(/\n\s+at requireEnv \(.*index\.js:\d+:\d+\)/);
    expect(trace).toMatch(/\n\s+at requireTables \(.*index\.js:\d+:\d+\)/);
  });

  it('points at the .ts source line through the map shipped beside the bundle, without the sources', () => {
    const mapFile = `${bundle}.map`;
    const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload;
    expect(payload).not.toHaveProperty('sourcesContent');
    const resolved = resolveStackTrace(trace, payload, mapFile, repoRoot);
    const throwLine = lineOf(
      'shared/runtime/variables.ts',
      'throw new Error(`Missing required environment variable',
    );
    expect(resolved).toMatch(
      new RegExp(`\\n\\s+at requireEnv \\(\\S*shared/runtime/variables\\.ts:${throwLine}:\\d+\\)`),
    );
    const callLine = lineOf('shared/http/endpoint.ts', 'requireEnv(tables[key].envVar)');
    expect(resolved).toMatch(
      new RegExp(`\\n\\s+at requireTables \\(\\S*shared/http/endpoint\\.ts:${callLine}:\\d+\\)`),
    );
    expect(resolved).toMatch(/\n\s+at .*functions\/projects\/get-project\.ts:\d+:\d+\)/);
    expect(resolved).not.toContain('index.js');
  });
});
