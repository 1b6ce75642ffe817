import { join } from 'node:path';
import { type App, Stack } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FUNCTION_BUNDLING, LAMBDA_SUBSTITUTES } from '#infra/api/endpoint-function.ts';
import { tables } from '#shared/db/tables.ts';

// The bare DynamoDB handler (test/bench/bare-handler.ts: the SDK's clients and one GetItem), bundled
// by the same CDK code as the functions, in a stack of its own: the reference of every bundle ratio,
// in the bench and in the bundle budget (test/infra/bundle-budget.test.ts).

const repoRoot = join(import.meta.dirname, '..', '..');

/** The options without the aliases of `packages` (LAMBDA_SUBSTITUTES): the SDK's own code for them. */
export function withSdkOwn(options: BundlingOptions, packages: readonly string[]): BundlingOptions {
  const aliases = options.esbuildArgs?.['--alias'];
  if (!Array.isArray(aliases)) return options;
  const kept = aliases.filter((alias) => !packages.some((name) => alias.startsWith(`${name}=`)));
  return { ...options, esbuildArgs: { ...options.esbuildArgs, '--alias': kept } };
}

/** The functions' esbuild options with the SDK as its users get it (no substitutes): the bare handler's. */
export const sdkOwnBundling = (): BundlingOptions =>
  withSdkOwn(FUNCTION_BUNDLING, Object.keys(LAMBDA_SUBSTITUTES));

/** A stack `stackName` in `app` holding one handler of test/bench/, bundled with `bundling`. */
export function bareHandlerStack(
  app: App,
  stackName: string,
  bundling: BundlingOptions = sdkOwnBundling(),
  file = 'bare-handler.ts',
): NodejsFunction {
  return new NodejsFunction(new Stack(app, stackName), 'BareHandler', {
    entry: join(repoRoot, 'test', 'bench', file),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    environment: Object.fromEntries(
      [tables.apiKeys, tables.projects, tables.deployments].map((table) => [table.envVar, table.localName]),
    ),
    bundling,
  });
}
