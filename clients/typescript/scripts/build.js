// `npm run build` (run by `prepare`, so by the root's `npm install` and by `npm pack`): dist/index.js,
// one ES module bundled by esbuild for any runtime with fetch, and dist/**/*.d.ts by tsc. Plain
// JavaScript so that it runs on whichever Node `npm install` has (Node 24 may not be installed yet).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outfile: join(dist, 'index.js'),
  logLevel: 'warning',
});
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const declarations = [
  '--noEmit',
  'false',
  '--declaration',
  '--emitDeclarationOnly',
  '--rootDir',
  'src',
  '--outDir',
  'dist',
];
execFileSync(process.execPath, [tsc, '-p', root, ...declarations], { cwd: root, stdio: 'inherit' });
// The sources import './x.ts' (Node and Jest run them as they are); declarations must say './x.js'.
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) =>
  name.endsWith('.d.ts'),
)) {
  const path = join(dist, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
}
