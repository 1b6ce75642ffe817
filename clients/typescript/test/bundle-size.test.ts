import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// The budget: 8 KB = 8,192 bytes for the SDK as a browser would load it (one minified ES
// module, gzip -9).
const BUDGET = 8192;

it(`is at most ${BUDGET} bytes minified and gzipped for browsers`, async () => {
  const result = await build({
    entryPoints: [join(import.meta.dirname, '..', 'src', 'index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const minified = result.outputFiles[0]?.contents ?? new Uint8Array();
  const gzipped = gzipSync(minified, { level: 9 }).length;
  console.log(`@platform-api/client: ${minified.length} bytes minified, ${gzipped} bytes gzip -9`);
  expect(gzipped).toBeLessThanOrEqual(BUDGET);
});
