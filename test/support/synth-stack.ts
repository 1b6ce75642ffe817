import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { PlatformStack } from '#infra/platform-stack.ts';
import { bareHandlerStack } from './bare-handler-stack.ts';

// Synthesizes the stack with real esbuild bundling into the folder named on the command line, and
// leaves a marker saying how it went. Run once per test run, beside the suites (see
// test/support/synthesized-stack.ts), because bundling every function takes longer than any suite.

const [outdir] = process.argv.slice(2);
if (!outdir) throw new Error('usage: node test/support/synth-stack.ts <outdir>');
try {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new PlatformStack(app, 'PlatformStack');
  // The reference of the bundle budget (test/infra/bundle-budget.test.ts), bundled by the same code.
  bareHandlerStack(app, 'BareStack');
  app.synth();
  writeFileSync(join(outdir, '.synth-done'), '');
} catch (error) {
  writeFileSync(
    join(outdir, '.synth-failed'),
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  process.exitCode = 1;
}
