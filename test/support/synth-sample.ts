import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { bundlingOf, FUNCTION_BUNDLING, repoRoot } from '#infra/api/endpoint-function.ts';

// One function of each way the stack bundles one, built with the stack's own options into the
// folder named on the command line (test/infra/reproducible-assets.test.ts runs it from a copy of
// the checkout). Every path that can reach a bundle passes through one of them: the entry and the
// project root, the aliases of the Lambda substitutes (FUNCTION_BUNDLING), a route function's rows
// compiled in (bundlingOf), a fallback's map of paths, files copied beside the bundle (the docs).
// A bundle's bytes, and so its asset hash, depend on its entry and its esbuild options alone.

/** Each sample: its entry under the checkout, and the options the stack bundles it with. */
const SAMPLES: Record<string, { entry: string; bundling: BundlingOptions }> = {
  // A route function: its rows compiled in (infra/api/endpoint-function.ts, EndpointFunction).
  'get-project': { entry: 'functions/projects/get-project.ts', bundling: bundlingOf('get-project') },
  // A group's fallback: its map of paths to methods too.
  'platform-fallback': {
    entry: 'functions/service/platform-fallback.ts',
    bundling: bundlingOf('platform-fallback'),
  },
  // The docs: the renderer's files and the published document copied beside the bundle.
  docs: { entry: 'functions/service/docs.ts', bundling: bundlingOf('docs') },
  // A stream consumer (infra/consumers/consumer-function.ts) and the custom resource's function
  // (infra/custom-resources/key-signing-public-key-resource.ts): the shared options as they are.
  'webhook-fan-out': { entry: 'functions/webhooks/webhook-fan-out.ts', bundling: FUNCTION_BUNDLING },
  'key-signing-public-key': {
    entry: 'infra/custom-resources/key-signing-public-key.ts',
    bundling: FUNCTION_BUNDLING,
  },
};

const [outdir] = process.argv.slice(2);
if (!outdir) throw new Error('usage: node test/support/synth-sample.ts <outdir>');
const app = new App({ outdir });
const stack = new Stack(app, 'Sample');
// Each function's code is the asset `<name>/Code` of the assembly's manifest.
for (const [name, { entry, bundling }] of Object.entries(SAMPLES)) {
  new NodejsFunction(stack, name, {
    entry: join(repoRoot, entry),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    bundling,
  });
}
app.synth();
writeFileSync(join(outdir, '.synth-done'), '');
