// Bundle size and cold-load time of every Lambda function, as `cdk deploy` would ship them.
// Synthesizes the stack (esbuild bundles each function), then loads each bundle in fresh Node
// processes and reports the median time of its `require`. Run: `npm run bench`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { App } from 'aws-cdk-lib';
import { PlatformStack } from '../../infra/platform-stack.ts';
import { tables } from '../../shared/db/tables.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BUDGET_BYTES = 150 * 1024;

interface LambdaResource {
  Type: string;
  Properties: { Description?: string };
  Metadata?: { 'aws:asset:path'?: string };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

// What each function's configuration provides at cold start (names only matter, not values).
const env = {
  ...process.env,
  ...Object.fromEntries(Object.values(tables).map((table) => [table.envVar, table.localName])),
  CURSOR_SECRET: 'bench',
  AWS_REGION: 'eu-west-1',
};

function coldRequireMs(file: string): number {
  const script = `const t=process.hrtime.bigint();require(${JSON.stringify(file)});console.log(Number(process.hrtime.bigint()-t)/1e6)`;
  return Number(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }).trim());
}

const outdir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
try {
  // Asset metadata (which folder holds which function's bundle) is on by default only under the CLI.
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new PlatformStack(app, 'PlatformStack');
  const assembly = app.synth();
  const template = assembly.getStackByName('PlatformStack').template as {
    Resources: Record<string, LambdaResource>;
  };
  const rows = Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .map((resource) => {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (!assetPath) throw new Error(`No asset for ${resource.Properties.Description}`);
      const file = join(outdir, assetPath, 'index.js');
      const times = Array.from({ length: RUNS }, () => coldRequireMs(file));
      return {
        route: resource.Properties.Description ?? '?',
        bytes: statSync(file).size,
        gzipBytes: gzipSync(readFileSync(file)).byteLength,
        medianMs: median(times),
      };
    });

  console.log(`Node ${process.version}, ${RUNS} cold loads per bundle (median)\n`);
  console.log(
    `${'route'.padEnd(42)} ${'minified'.padStart(10)} ${'gzip'.padStart(9)} ${'require'.padStart(9)}`,
  );
  for (const row of rows) {
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const over = row.bytes > BUDGET_BYTES ? '  over 150 KB budget' : '';
    console.log(
      `${row.route.padEnd(42)} ${kb(row.bytes).padStart(10)} ${kb(row.gzipBytes).padStart(9)} ${`${row.medianMs.toFixed(1)} ms`.padStart(9)}${over}`,
    );
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
