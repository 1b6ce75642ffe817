import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, type ParamsAndSecretsLayerVersion, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { TableKey } from '#shared/db/tables.ts';
import { bundledRowsDefines } from '#shared/http/own-rows.ts';
import { BUNDLED_PATH_METHODS_DEFINE, pathMethodsOf } from '#shared/http/unmatched.ts';
import { publishedDocumentPath } from '#shared/openapi/published-document.ts';
import { RENDERER_FILES } from '#shared/openapi/renderer-files.ts';
import { isFallback, type Route, rowsOf } from '#shared/routes.ts';
import { functionMemoryMb, functionTimeoutSeconds } from '#shared/runtime/function-settings.ts';
import type { SecretName } from '#shared/runtime/secrets.ts';
import { bindGrants } from '../access/bind-grants.ts';
import { functionRole } from '../access/function-role.ts';
import { routeGrants } from '../access/grants.ts';
import { handlerEntry } from '../handler-entries.ts';

/**
 * SDK packages the Lambda bundles replace with a file of infra/lambda/ (paths from the project root,
 * esbuild's working directory); local runs, tests and scripts keep the SDK's own. Each is code that
 * every cold start would load and no function runs in Lambda:
 * - the default credential chain (profiles, SSO, STS, IMDS...), a quarter of every bundle: Lambda
 *   hands the role's credentials over in variables, which credentials.ts reads, failing the cold
 *   start by name when they are missing;
 * - event-stream codecs, which the SDK loads on demand and esbuild's CommonJS output cannot leave out:
 *   no DynamoDB or SQS operation streams events;
 * - the endpoint-discovery cache, built by the DynamoDB client and read by none of its commands;
 * - the document client's index, whose paginators keep the Scan and Query commands of both SDK
 *   packages in every bundle (about 2.7 KB of a function that runs neither): document-client.js
 *   exports the client and each command from its own module.
 * The bench's bare handler is bundled without them (test/bench/synth.ts): the SDK as its users get it.
 */
export const LAMBDA_SUBSTITUTES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './infra/lambda/credentials.ts',
  '@smithy/core/event-streams': './infra/lambda/without-event-streams.ts',
  '@aws-sdk/endpoint-cache': './infra/lambda/without-endpoint-cache.ts',
  '@aws-sdk/lib-dynamodb': './infra/lambda/document-client.js',
};

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const shellQuoted = (path: string): string => `'${path.replace(/'/g, `'\\''`)}'`;

/**
 * The command run after esbuild in `outputDir`, before CDK hashes the asset: the source map's sources
 * named from the repository root, so that the asset's hash is the same wherever the commit is built
 * (infra/operations/source-maps.ts). Then the files `besideBundle` copied in.
 */
function afterBundling(outputDir: string, besideBundle: readonly string[] = []): string[] {
  const script = join(repoRoot, 'infra', 'scripts', 'root-relative-source-map.ts');
  return [
    [process.execPath, script, join(outputDir, 'index.js.map'), repoRoot].map(shellQuoted).join(' '),
    ...besideBundle.map((file) => `cp ${shellQuoted(file)} ${shellQuoted(outputDir)}`),
  ];
}

/**
 * The esbuild options every function shares (a route function's adds its rows, `bundlingOf`). The
 * bench (test/bench/) builds its bare SDK handler with the same options, so that the functions are
 * compared with the SDK bundled alike.
 */
export const FUNCTION_BUNDLING = {
  minify: true,
  // Readable stack traces: function names survive minification, and a source map beside each bundle
  // (without the sources' text: it only maps positions) takes a logged trace back to the .ts lines,
  // offline (infra/scripts/resolve-stack-trace.ts). Not with --enable-source-maps in the functions:
  // it made the cold `require` 19–25 % dearer (docs/operating.md, Readable stack traces), and Lambda pays it at every cold start.
  keepNames: true,
  sourceMap: true,
  // DEFAULT: a separate .map file plus the comment that names it, so that a local run with
  // --enable-source-maps finds it (EXTERNAL leaves the comment out).
  sourceMapMode: SourceMapMode.DEFAULT,
  sourcesContent: false,
  target: 'node24',
  format: OutputFormat.CJS,
  // CommonJS has no import.meta: code that reads a file shipped beside the bundle finds it by
  // `import.meta.dirname`, which is then the bundle's folder (shared/openapi/published-document.ts).
  define: { 'import.meta.dirname': '__dirname' },
  // Prefer packages' ESM builds: esbuild tree-shakes them, which makes the SDK bundles much smaller.
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK too: the version we test is the version that runs, and a bundled,
  // tree-shaken client loads faster than the runtime's full copy.
  externalModules: [],
  esbuildArgs: {
    '--alias': Object.entries(LAMBDA_SUBSTITUTES).map(([name, file]) => `${name}=${file}`),
  },
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => afterBundling(outputDir),
  },
} satisfies BundlingOptions;

const resolve = createRequire(import.meta.url).resolve;

/** Files a function reads at run time besides its code, by handler: copied next to its bundle. */
const filesBesideBundle: Partial<Record<string, readonly string[]>> = {
  // The docs page's renderer, too big to inline as code (shared/openapi/renderer-files.ts), and the
  // published OpenAPI document (shared/openapi/published-document.ts).
  docs: [...RENDERER_FILES.map((name) => resolve(`swagger-ui-dist/${name}`)), publishedDocumentPath()],
};

/**
 * A route function's esbuild options: the shared ones, its own rows compiled in (so that the route
 * table stays out of its bundle, shared/http/own-rows.ts), a fallback's map of its group's paths to
 * their methods too (shared/http/unmatched.ts), and the files it reads copied beside it.
 */
export function bundlingOf(handler: string, rows: readonly Route[] = rowsOf(handler)): BundlingOptions {
  const files = filesBesideBundle[handler];
  const fallback = rows.find(isFallback);
  return {
    ...FUNCTION_BUNDLING,
    define: {
      ...FUNCTION_BUNDLING.define,
      ...bundledRowsDefines(rows),
      ...(fallback && {
        [BUNDLED_PATH_METHODS_DEFINE]: JSON.stringify(JSON.stringify(pathMethodsOf(fallback.api))),
      }),
    },
    ...(files && {
      commandHooks: {
        ...FUNCTION_BUNDLING.commandHooks,
        afterBundling: (_inputDir: string, outputDir: string) => afterBundling(outputDir, files),
      },
    }),
  };
}

export interface EndpointFunctionProps {
  /**
   * A route row this function serves: entry file, memory and table grants all come from it. Rows
   * that share its handler (the docs) are served by the same function.
   */
  route: Route;
  /** Every row its handler serves (the route table's, unless the stack was given other rows). */
  rows?: readonly Route[];
  /** Its entry file: `functions/<feature>/<handler>.ts` unless the stack was given another place. */
  entry?: string;
  /** Its name, which the alarms find it by (infra/operations/monitoring.ts). */
  functionName?: string;
  /** Every table of the stack; the function binds only those its row names. */
  tables: Record<TableKey, ITable>;
  /** Variables every function gets (those that locate its resources come with its grants, infra/access/bind-grants.ts). */
  environment?: Record<string, string>;
  /** Every secret of the stack; the function may read only those its row names. */
  secrets: Record<SecretName, ISecret>;
  /** The extension that serves secrets on localhost (shared/runtime/secrets.ts): added to functions that read one. */
  secretsExtension: ParamsAndSecretsLayerVersion;
  /** The key that seals environment variables; a function may use it only as its row says (`kms`). */
  environmentKey?: IKey;
  /** Reserved concurrency, when the stack asks for it for this row (the /auth/* rows). */
  reservedConcurrency?: number;
  /** How long its log group keeps lines. */
  logRetention: RetentionDays;
}

/** One handler's Lambda function, with every default in one place and exactly its row's table grants. */
export class EndpointFunction extends NodejsFunction {
  readonly route: Route;

  constructor(scope: Construct, id: string, props: EndpointFunctionProps) {
    const { route } = props;
    const rows = props.rows ?? rowsOf(route.handler);
    // An explicit log group instead of `logRetention`, which would add a helper function to the stack.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      description: describeFunction(route.handler, rows),
      ...(props.functionName === undefined ? {} : { functionName: props.functionName }),
      entry: props.entry ?? handlerEntry(route.handler),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // Longer for a row that holds requests open (a wait): its holding never eats its time for work.
      timeout: Duration.seconds(functionTimeoutSeconds(route)),
      // CPU scales with memory, so the password-hashing rows ask for more.
      memorySize: functionMemoryMb(route),
      environment: props.environment,
      ...(route.secrets?.length ? { paramsAndSecrets: props.secretsExtension } : {}),
      ...(props.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrency }),
      // Active tracing: the runtime sends the segments (no tracer package in the bundle), so a slow
      // request shows its DynamoDB calls in X-Ray.
      tracing: Tracing.ACTIVE,
      logGroup,
      role: functionRole(scope, `${id}Role`, logGroup),
      bundling: bundlingOf(route.handler, rows),
    });
    this.route = route;
    // Queues are bound by the construct that makes them (infra/consumers/webhooks.ts), from the same grants:
    // its rows', as local runs enforce them (infra/local/iam).
    bindGrants(this, rows.flatMap(routeGrants), {
      tables: props.tables,
      secrets: props.secrets,
      ...(props.environmentKey ? { environmentKey: props.environmentKey } : {}),
    });
  }
}

/**
 * A handler's function's description: its rows' methods and paths and its group, e.g.
 * `GET /projects/{id} (platform)`; test/infra finds a row's function by it.
 */
export function describeFunction(handler: string, rows: readonly Route[] = rowsOf(handler)): string {
  return `${rows.map((row) => `${row.method} ${row.path}`).join(', ')} (${rows[0]?.api ?? 'no route'})`;
}
