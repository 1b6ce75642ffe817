import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { atLowestPriority, synthesizedAssembly } from '../support/synthesized-stack.ts';

// The same commit synthesized in two places ships the same assets: a deploy from a CI runner after
// one from a laptop must not update every function (and make every container cold) for no change.
// One synthesis is the test run's own (test/support/synthesized-stack.ts), from this checkout; the
// other is made here, from a copy of the files the synthesis reads in another directory, into another
// cloud assembly. Its node_modules is a link to this checkout's, so packages resolve to the same files
// in both (two real installs of one lock file would hold the same bytes); what differs is everything
// the bundling could take from where the repository and the assembly are. Every asset of every
// manifest (each function's bundle, each nested stack's template) is compared by its hash.

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');

/** What the synthesis reads from the repository (test/support/synth-stack.ts is its script). */
const SYNTHESIS_INPUTS = [
  'functions',
  'shared',
  'infra',
  'test/support/synth-stack.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

interface AssetManifest {
  files?: Record<string, { displayName?: string; source: { path?: string } }>;
}

/** Every file asset of the assembly in `outdir`, as `<manifest> <asset name>: <hash>`, sorted. */
function assetHashes(outdir: string): string[] {
  return readdirSync(outdir)
    .filter((file) => file.endsWith('.assets.json'))
    .flatMap((file) => {
      const manifest = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as AssetManifest;
      return Object.entries(manifest.files ?? {}).map(
        ([hash, asset]) => `${file} ${asset.displayName ?? asset.source.path}: ${hash}`,
      );
    })
    .sort();
}

let elsewhere = '';
afterAll(() => {
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

it('gives every asset the same hash when the same files are synthesized in another directory', async () => {
  const here = assetHashes((await synthesizedAssembly()).directory);
  elsewhere = mkdtempSync(join(tmpdir(), 'platform-elsewhere-'));
  const copy = join(elsewhere, 'a', 'clone', 'somewhere', 'else');
  for (const input of SYNTHESIS_INPUTS) cpSync(join(repoRoot, input), join(copy, input), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const outdir = join(elsewhere, 'assembly');
  mkdirSync(outdir);
  const synthesis = run(process.execPath, [join(copy, 'test', 'support', 'synth-stack.ts'), outdir], {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
  });
  atLowestPriority(synthesis.child);
  await synthesis.catch(() => {
    throw new Error(`The synthesis elsewhere failed: ${readFileSync(join(outdir, '.synth-failed'), 'utf8')}`);
  });
  const there = assetHashes(outdir);
  expect(here.length).toBeGreaterThan(40);
  expect(there).toEqual(here);
}, 600_000);
