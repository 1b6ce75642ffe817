import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { bundlingOf, describeFunction, FUNCTION_BUNDLING } from '#infra/api/endpoint-function.ts';
import { handlerEntry } from '#infra/handler-entries.ts';
import { PlatformStack } from '#infra/platform-stack.ts';
import { bareHandlerStack, sdkOwnBundling, withSdkOwn } from '../support/bare-handler-stack.ts';
import { functionsOf, type SynthesizedFunction } from '../support/lambda-bundles.ts';

// The bundles `cdk deploy` would ship, and beside them the bare handler, bundled by the same CDK
// code with the same esbuild options minus the SDK substitutes (infra/lambda/): the SDK as its users
// get it, built as the functions are. Two more builds of it for context: without keepNames and
// source maps (as most bundles ship, a stricter floor), and with the substitutes.

export interface Synthesized {
  functions: SynthesizedFunction[];
  /** The reference of every ratio. */
  bare: SynthesizedFunction;
  /** The same without the trace aids (keepNames, source maps): the summary's stricter floor. */
  bareUntraced: SynthesizedFunction;
  /** The same handler bundled exactly as the functions are (SDK substitutes included), for context. */
  bareLean: SynthesizedFunction;
  /** The SDK making a keyed request's calls (bare-calls-handler.ts), bundled as `bare` is. */
  bareCalls: SynthesizedFunction;
  /**
   * get-project again, for the cost of readable stack traces: the same bundle run with
   * --enable-source-maps, and a bundle without keepNames and source maps (as before them).
   */
  variants: { label: string; fn: SynthesizedFunction }[];
}

/** The function the variants are of. */
const VARIANT_OF = 'get-project';

const repoRoot = join(import.meta.dirname, '..', '..');

const CREDENTIALS = '@aws-sdk/credential-provider-node';

/**
 * The options without what makes stack traces readable (keepNames, source maps, and the hook that
 * names the map's sources from the repository root): as most bundles ship.
 */
function withoutTraceAids(options: BundlingOptions): BundlingOptions {
  const {
    keepNames: _names,
    sourceMap: _map,
    sourceMapMode: _mode,
    sourcesContent: _content,
    commandHooks: _hooks,
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
    Object.assign(FUNCTION_BUNDLING, withSdkOwn(FUNCTION_BUNDLING, [CREDENTIALS]));
  }
  // Asset metadata (which folder holds which function's bundle) is on by default only under the CLI.
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new PlatformStack(app, 'PlatformStack');
  const sdkOwn = sdkOwnBundling();
  bareHandlerStack(app, 'BareStack', sdkOwn);
  bareHandlerStack(app, 'BareUntracedStack', withoutTraceAids(sdkOwn));
  bareHandlerStack(app, 'BareLeanStack', FUNCTION_BUNDLING);
  bareHandlerStack(app, 'BareCallsStack', sdkOwn, 'bare-calls-handler.ts');
  new NodejsFunction(new Stack(app, 'PlainStack'), 'PlainFunction', {
    entry: handlerEntry(VARIANT_OF),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    bundling: withoutTraceAids(bundlingOf(VARIANT_OF)),
  });
  const assembly = app.synth();
  const [bare] = functionsOf(assembly, 'BareStack');
  const [bareUntraced] = functionsOf(assembly, 'BareUntracedStack');
  const [bareLean] = functionsOf(assembly, 'BareLeanStack');
  const [bareCalls] = functionsOf(assembly, 'BareCallsStack');
  const [plain] = functionsOf(assembly, 'PlainStack');
  const functions = functionsOf(assembly, 'PlatformStack');
  const original = functions.find((fn) => fn.name === describeFunction(VARIANT_OF));
  if (!bare || !bareUntraced || !bareLean || !bareCalls || !plain || !original)
    throw new Error('A reference bundle of the bench was not synthesized');
  const { variables } = original;
  return {
    functions,
    bare: { ...bare, name: 'bare handler (one GetItem)' },
    bareUntraced: { ...bareUntraced, name: 'bare handler without keepNames, maps' },
    bareLean: { ...bareLean, name: "bare handler, functions' esbuild options" },
    bareCalls,
    variants: [
      {
        label: `${VARIANT_OF} with --enable-source-maps`,
        fn: { ...original, variables: { ...variables, NODE_OPTIONS: '--enable-source-maps' } },
      },
      { label: `${VARIANT_OF} without keepNames, maps`, fn: { ...plain, name: original.name, variables } },
    ],
  };
}
