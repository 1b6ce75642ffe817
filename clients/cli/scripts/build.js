// `npm run build` (run by `prepare`, so by the root's `npm install` and by `npm pack`): dist/platform.js,
// the CLI in one file for Node 20 and later, with the SDK left as the dependency it is. Plain
// JavaScript so that it runs on whichever Node `npm install` has.
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: join(root, 'dist', 'platform.js'),
  logLevel: 'warning',
});
