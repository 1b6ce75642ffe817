import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { tableKeys, tableNameHere, tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE, publishedKeysOf } from '#shared/domain/key-identity.ts';
import { secrets } from '#shared/runtime/secrets.ts';
import { flattenedTemplate } from './stack-templates.ts';

// Synthesized function bundles, and a Lambda-like cold start of one: a fresh Node process with
// the function's template variables (local values) and what Lambda's Node.js runtime adds
// (region, the execution role's credentials), `require`, then one invocation.

export interface SynthesizedFunction {
  /** The function's description, e.g. `GET /projects/{id} (platform)`. */
  name: string;
  bundle: string;
  /** The variables its template sets (unresolved references included). */
  variables: Record<string, unknown>;
}

interface FunctionResource {
  Type: string;
  Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } };
  Metadata?: Record<string, string>;
}

/** Every function of a synthesized stack (the app needs `aws:cdk:enable-asset-metadata`). */
export function functionsOf(assembly: CloudAssembly, stackName: string): SynthesizedFunction[] {
  // The route functions are in nested stacks: their templates merged into the root's.
  const { Resources } = flattenedTemplate(
    assembly.directory,
    assembly.getStackByName(stackName).templateFile,
  ) as unknown as { Resources: Record<string, FunctionResource> };
  return Object.values(Resources).flatMap((resource) => {
    const asset = resource.Metadata?.['aws:asset:path'];
    if (resource.Type !== 'AWS::Lambda::Function' || !asset) return [];
    return [
      {
        name: resource.Properties.Description ?? '',
        bundle: join(assembly.directory, asset, 'index.js'),
        variables: resource.Properties.Environment?.Variables ?? {},
      },
    ];
  });
}

const localTableNames = new Map<string, string>(
  tableKeys.map((key) => [tables[key].envVar, tableNameHere(key)]),
);

/** The local name of the table a function's variable names (`PROJECTS_TABLE`...); undefined for another variable. */
export const localTableNameOf = (variable: string): string | undefined => localTableNames.get(variable);

/** What Lambda's runtime gives a function besides its template's variables. */
export const LAMBDA_RUNTIME_VARIABLES = {
  AWS_REGION: 'eu-west-1',
  AWS_DEFAULT_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'ASIALAMBDAROLE',
  AWS_SECRET_ACCESS_KEY: 'lambda-role-secret',
  AWS_SESSION_TOKEN: 'lambda-role-session',
};

/** A value the function gets as it is (NODE_OPTIONS in a bench variant), not a reference resolved at deploy time. */
const isLiteral = (value: unknown): value is string =>
  typeof value === 'string' && !value.startsWith('{{resolve:');

/**
 * What a variable resolved at deploy time holds here: an address for a URL (the docs function checks
 * its `{base_url}` at load), a recognisable name for anything else.
 */
const placeholderOf = (name: string): string =>
  name.endsWith('_URL') ? `https://${name.toLowerCase().replaceAll('_', '-')}.example.com` : `local-${name}`;

/**
 * A function's container environment against DynamoDB (Local) at `endpoint`, reached through the
 * SDK's own endpoint variable: the bundle runs its deployed code path (shared/db/client.ts's
 * DYNAMODB_ENDPOINT branch, with its fixed local key, stays off).
 */
export function lambdaEnvironment(
  variables: Record<string, unknown>,
  endpoint: string,
  runtime: Record<string, string> = LAMBDA_RUNTIME_VARIABLES,
): Record<string, string> {
  const env: Record<string, string> = { ...runtime, AWS_ENDPOINT_URL_DYNAMODB: endpoint };
  for (const [name, value] of Object.entries(variables)) {
    env[name] = localTableNames.get(name) ?? (isLiteral(value) ? value : placeholderOf(name));
  }
  // The public key of this run's seed, so keys issued in-process are genuine to the bundle.
  if (PUBLIC_KEYS_VARIABLE in variables) {
    env[PUBLIC_KEYS_VARIABLE] = publishedKeysOf([process.env[secrets.keySigningSeed] ?? '']);
  }
  return env;
}

export interface ColdInvocation {
  /** The `require` of the bundle: everything its module scope does (the clients are built there). */
  requireMs: number;
  /**
   * The CPU time of that `require` (all threads): the work of loading, which a busy machine
   * inflates far less than the wall time. In Lambda, where a small function gets a fraction of a
   * core, loading is CPU-bound.
   */
  requireCpuMs: number;
  /** The `require` plus the first invocation, until the handler's promise settles. */
  firstInvocationMs: number;
  /** The CPU time of the same (the store's time is not in it). */
  firstInvocationCpuMs: number;
  result: { statusCode: number; headers?: Record<string, string>; body: string };
}

// CommonJS, as the runtime loads a CJS handler. The outcome is the last line: the handler may log.
// With a third argument the function streams its answer: that module is the runtime's `awslambda`
// (the local gateway's stand-in, put in place before the clock starts: it stands for the runtime,
// not the function), the handler writes to a response stream, and its result is read back from the
// prelude and the bytes after it.
const CHILD = `
const { Writable } = require('node:stream');
const streaming = process.argv[3];
const runtime = streaming ? import(streaming) : Promise.resolve(undefined);
runtime.then((standIn) => {
  standIn?.installStreamingRuntime();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const { handler } = require(process.argv[1]);
  const loaded = process.hrtime.bigint();
  const { user, system } = process.cpuUsage(cpu);
  const context = { awsRequestId: 'cold-start', functionName: 'cold-start', getRemainingTimeInMillis: () => 10000 };
  const ms = (t) => Number(t - started) / 1e6;
  const event = JSON.parse(process.argv[2]);
  const chunks = [];
  const streamed = () => {
    const split = standIn.splitPrelude(Buffer.concat(chunks));
    return split
      ? { statusCode: split.metadata.statusCode, headers: split.metadata.headers, body: split.body.toString('utf8') }
      : { statusCode: 0, body: 'no prelude' };
  };
  const invoked = standIn
    ? Promise.resolve(handler(event, new Writable({ write(chunk, _encoding, done) { chunks.push(Buffer.from(chunk)); done(); } }), context)).then(streamed)
    : Promise.resolve(handler(event, context));
  return invoked.then((result) => {
    const answered = process.hrtime.bigint();
    const total = process.cpuUsage(cpu);
    const line = JSON.stringify({
      requireMs: ms(loaded), requireCpuMs: (user + system) / 1000,
      firstInvocationMs: ms(answered), firstInvocationCpuMs: (total.user + total.system) / 1000, result,
    });
    process.stdout.write('\\n' + line + '\\n', () => process.exit(0));
  });
}).catch((error) => { console.error(error); process.exit(1); });`;

const STREAMING_STAND_IN = join(import.meta.dirname, '..', '..', 'infra', 'local', 'lambda-streaming.ts');

const run = promisify(execFile);

/** One cold start in a fresh process; rejects (with the child's stderr) when it fails to load or answer. */
export async function invokeCold(
  bundle: string,
  env: Record<string, string>,
  event: unknown,
  options: { streams?: boolean } = {},
): Promise<ColdInvocation> {
  // BENCH_CPU_PROFILES=<dir>: each cold start's V8 CPU profile written there (test/bench/profile-summary.ts reads one).
  const profiles = process.env.BENCH_CPU_PROFILES;
  const args = [
    ...(profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : []),
    '-e',
    CHILD,
    bundle,
    JSON.stringify(event),
    ...(options.streams ? [STREAMING_STAND_IN] : []),
  ];
  const { stdout } = await run(process.execPath, args, { env });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ColdInvocation;
}
