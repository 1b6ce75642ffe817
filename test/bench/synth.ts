import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describeFunction, FUNCTION_BUNDLING } from '../../infra/endpoint-function.ts';
import { PlatformStack } from '../../infra/platform-stack.ts';
import { tables } from '../../shared/db/tables.ts';
import { functionsOf, type SynthesizedFunction } from '../support/lambda-bundles.ts';

// The bundles `cdk deploy` would ship, and beside them the bare handler, bundled by the same CDK
// code with the same esbuild options minus the credential alias: the SDK as its users get it.

export interface Synthesized {
  functions: SynthesizedFunction[];
  /** The reference of every ratio. */
  bare: SynthesizedFunction;
  /** The same handler bundled exactly as the functions are (credential alias included), for context. */
  bareLean: SynthesizedFunction;
  /**
   * get-project again, for the cost of readable stack traces: the same bundle run with
   * --enable-source-maps, and a bundle without keepNames and source maps (as before them).
   */
  variants: { label: string; fn: SynthesizedFunction }[];
}

/** The function the variants are of. */
const VARIANT_OF = 'get-project';

const repoRoot = join(import.meta.dirname, '..', '..');

/** The options without the alias that swaps in the Lambda credential chain (infra/lambda/credentials.ts). */
function withDefaultCredentialChain(options: BundlingOptions): BundlingOptions {
  const aliases = options.esbuildArgs?.['--alias'];
  if (!Array.isArray(aliases)) return options;
  const kept = aliases.filter((alias) => !alias.startsWith('@aws-sdk/credential-provider-node='));
  return { ...options, esbuildArgs: { ...options.esbuildArgs, '--alias': kept } };
}

/** The options without what makes stack traces readable (keepNames, source maps): as most bundles ship. */
function withoutTraceAids(options: BundlingOptions): BundlingOptions {
  const {
    keepNames: _names,
    sourceMap: _map,
    sourceMapMode: _mode,
    sourcesContent: _content,
    ...rest
  } = options;
  return rest;
}

/**
 * Synthesizes the stack and the bare handler into `outdir`, bundling each with esbuild. With
 * `sdkCredentialChain`, the functions are bundled without the credential alias too (as they were
 * before it), for a before/after comparison in one command.
 */
export function synthesize(outdir: string, options: { sdkCredentialChain?: boolean } = {}): Synthesized {
  if (options.sdkCredentialChain) {
    // This process only builds bundles: changing the shared options here changes nothing else.
    Object.assign(FUNCTION_BUNDLING, withDefaultCredentialChain(FUNCTION_BUNDLING));
  }
  // Asset metadata (which folder holds which function's bundle) is on by default only under the CLI.
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new PlatformStack(app, 'PlatformStack');
  const bareHandler = (stackName: string, bundling: BundlingOptions) =>
    new NodejsFunction(new Stack(app, stackName), 'BareHandler', {
      entry: join(repoRoot, 'test', 'bench', 'bare-handler.ts'),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      environment: { [tables.projects.envVar]: tables.projects.localName },
      bundling,
    });
  bareHandler('BareStack', withDefaultCredentialChain(withoutTraceAids(FUNCTION_BUNDLING)));
  bareHandler('BareLeanStack', FUNCTION_BUNDLING);
  new NodejsFunction(new Stack(app, 'PlainStack'), 'PlainFunction', {
    entry: join(repoRoot, 'functions', `${VARIANT_OF}.ts`),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    bundling: withoutTraceAids(FUNCTION_BUNDLING),
  });
  const assembly = app.synth();
  const [bare] = functionsOf(assembly, 'BareStack');
  const [bareLean] = functionsOf(assembly, 'BareLeanStack');
  const [plain] = functionsOf(assembly, 'PlainStack');
  const functions = functionsOf(assembly, 'PlatformStack');
  const original = functions.find((fn) => fn.name === describeFunction(VARIANT_OF));
  if (!bare || !bareLean || !plain || !original) throw new Error('The bare handler was not synthesized');
  const { variables } = original;
  return {
    functions,
    bare: { ...bare, name: 'bare handler (one GetItem)' },
    bareLean: { ...bareLean, name: "bare handler, functions' esbuild options" },
    variants: [
      {
        label: `${VARIANT_OF} with --enable-source-maps`,
        fn: { ...original, variables: { ...variables, NODE_OPTIONS: '--enable-source-maps' } },
      },
      { label: `${VARIANT_OF} without keepNames, maps`, fn: { ...plain, name: original.name, variables } },
    ],
  };
}
