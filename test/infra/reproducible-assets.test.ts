import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { synthesizedAssembly } from '../support/synthesized-stack.ts';

// The same commit synthesized in two places ships the same assets: a deploy from a CI runner after
// one from a laptop must not update every function (and make every container cold) for no change.
//
// An asset's hash is the hash of its folder's bytes (a bundle, its source map, the files copied
// beside it), so a bundle differs between two directories only if a path of either got into those
// bytes. Two checks:
// 1. Every file of every asset of the run's own assembly (test/support/synthesized-stack.ts, from
//    this checkout) is searched for this checkout's path and for the assembly's: a path that got into
//    any bundle or map shows up there as text, and the test names the file.
// 2. The stack is synthesized again, bundled, from a copy of the files the synthesis reads in another
//    directory, into another cloud assembly; every asset of every manifest (each function's bundle,
//    each nested stack's template) has the hash the run's assembly gives it. This is a second bundling
//    of every function: CDK cannot bundle one nested stack alone (`aws:cdk:bundling-stacks` matches
//    the root's path, and a nested stack asks its parent), so a cheaper check of the same thing needs
//    an app of one function of each kind built with the stack's own options (issue 45, left open).
// node_modules in the copy is a link to this checkout's, so packages resolve to the same files in
// both (two real installs of one lock file would hold the same bytes).

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');

/** What the synthesis reads from the repository (test/support/synth-stack.ts is its script). */
const SYNTHESIS_INPUTS = [
  'functions',
  'shared',
  'infra',
  'test/support/synth-stack.ts',
  'test/support/bare-handler-stack.ts',
  'test/bench/bare-handler.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

interface AssetManifest {
  files?: Record<string, { displayName?: string; source: { path?: string; packaging?: string } }>;
}

interface Asset {
  name: string;
  hash: string;
  /** The asset's folder or file in the assembly. */
  path: string;
}

/** Every file asset of the assembly in `outdir`, by its display name. */
function assetsOf(outdir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of readdirSync(outdir).filter((name) => name.endsWith('.assets.json'))) {
    const manifest = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as AssetManifest;
    for (const [hash, asset] of Object.entries(manifest.files ?? {})) {
      const name = `${file} ${asset.displayName ?? asset.source.path}`;
      assets.set(name, { name, hash, path: join(outdir, asset.source.path ?? '') });
    }
  }
  return assets;
}

/** Every file under `path` (itself, when it is a file). */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const bundled = (asset: Asset): boolean => existsSync(join(asset.path, 'index.js'));

let elsewhere = '';
afterAll(() => {
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

it("puts no path of the checkout's or the assembly's into any asset", async () => {
  const assembly = (await synthesizedAssembly()).directory;
  const assets = [...assetsOf(assembly).values()];
  expect(assets.filter(bundled).length).toBeGreaterThan(40);
  const paths = [repoRoot, assembly, basename(assembly)];
  const found = assets.flatMap((asset) =>
    filesUnder(asset.path).flatMap((file) => {
      const text = readFileSync(file, 'latin1');
      return paths.filter((path) => text.includes(path)).map((path) => `${file}: ${path}`);
    }),
  );
  expect(found).toEqual([]);
}, 600_000);

it('gives every asset the same hash when the same files are synthesized in another directory', async () => {
  const here = [...assetsOf((await synthesizedAssembly()).directory).values()];
  elsewhere = mkdtempSync(join(tmpdir(), 'platform-elsewhere-'));
  const copy = join(elsewhere, 'a', 'clone', 'somewhere', 'else');
  for (const input of SYNTHESIS_INPUTS) cpSync(join(repoRoot, input), join(copy, input), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const outdir = join(elsewhere, 'assembly');
  mkdirSync(outdir);
  await run(process.execPath, [join(copy, 'test', 'support', 'synth-stack.ts'), outdir], {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => {
    throw new Error(`The synthesis elsewhere failed: ${readFileSync(join(outdir, '.synth-failed'), 'utf8')}`);
  });
  const there = [...assetsOf(outdir).values()];
  const hashes = (assets: Asset[]) => assets.map((asset) => `${asset.name}: ${asset.hash}`).sort();
  expect(here.filter(bundled).length).toBeGreaterThan(40);
  expect(hashes(there)).toEqual(hashes(here));
}, 600_000);
