import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tables } from '../../shared/db/tables.ts';

// A cold start as Lambda's Node.js runtime makes one: a fresh process `require`s the bundle, then
// calls its handler once. The process gets the function's template variables (with local values)
// and what the runtime adds: region and the execution role's credentials. DynamoDB is reached
// through the SDK's own endpoint variable, so the bundle runs its deployed code path (the
// DYNAMODB_ENDPOINT branch of shared/db/client.ts stays off, and so does its fixed local key).

export interface ColdSample {
  /** The `require` of the bundle: everything its module scope does (the clients are built there). */
  requireMs: number;
  /** The `require` plus the first invocation, until the handler's promise settles. */
  firstInvocationMs: number;
  status: number;
}

const localTableNames = new Map<string, string>(
  Object.values(tables).map((table) => [table.envVar, table.localName]),
);

/** The process environment of a function's container, against DynamoDB (Local) at `endpoint`. */
export function lambdaEnvironment(
  variables: Record<string, unknown>,
  endpoint: string,
): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: 'eu-west-1',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'ASIABENCH',
    AWS_SECRET_ACCESS_KEY: 'bench-secret',
    AWS_SESSION_TOKEN: 'bench-session',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  };
  for (const name of Object.keys(variables)) env[name] = localTableNames.get(name) ?? `bench-${name}`;
  return env;
}

// CommonJS, as the runtime loads a CJS handler. The result is the last line: the handler may log.
const CHILD = `
const started = process.hrtime.bigint();
const { handler } = require(process.argv[1]);
const loaded = process.hrtime.bigint();
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10000 };
const ms = (t) => Number(t - started) / 1e6;
Promise.resolve(handler(JSON.parse(process.argv[2]), context)).then(
  (result) => {
    const answered = process.hrtime.bigint();
    const line = JSON.stringify({ requireMs: ms(loaded), firstInvocationMs: ms(answered), status: result?.statusCode ?? 0 });
    process.stdout.write('\\n' + line + '\\n', () => process.exit(0));
  },
  (error) => { console.error(error); process.exit(1); },
);`;

const run = promisify(execFile);

/** One cold start in a fresh process (not synchronously: this process's servers stay responsive). */
export async function coldStart(
  bundle: string,
  env: Record<string, string>,
  event: unknown,
): Promise<ColdSample> {
  const { stdout } = await run(process.execPath, ['-e', CHILD, bundle, JSON.stringify(event)], { env });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ColdSample;
}
