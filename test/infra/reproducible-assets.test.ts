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
import { pathWithoutDirectEsbuild } from '../support/direct-esbuild.ts';
import { synthesizedAssembly } from '../support/synthesized-stack.ts';

// The same commit synthesized in two places ships the same assets: a deploy from a CI runner after
// one from a laptop must not update every function (and make every container cold) for no change.
//
// An asset's hash is the hash of its folder's bytes (a bundle, its source map, the files copied
// beside it), so a bundle differs between two directories only if a path of either got into those
// bytes. Two checks:
// 1. Every file of every asset of the run's own assembly (test/support/synthesized-stack.ts, from
//    this checkout) is searched for this checkout's path and for the assembly's: a path that got into
//    any bundle, map or template shows up there as text, and the test names the file.
// 2. One function of each way the stack bundles one (test/support/synth-sample.ts: a route
//    function, a fallback, the docs with their files, a stream consumer, the custom resource) is
//    bundled with the stack's own options from a copy of the checkout in another directory; each
//    must come out byte for byte as an asset of the run's assembly, made here. That proves both that
//    the sample is built as the stack builds it and that the other directory changed nothing, for
//    every path a bundle's options can carry, at the cost of five bundles instead of the stack's
//    seventy (a second bundling of the whole stack took about 127 CPU-s).
// node_modules in the copy is a link to this checkout's, so packages resolve to the same files in
// both (two real installs of one lock file would hold the same bytes).

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');

/** What the sample's synthesis reads from the repository. */
const SYNTHESIS_INPUTS = [
  'functions',
  'shared',
  'infra',
  'test/support/synth-sample.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

interface AssetManifest {
  files?: Record<string, { displayName?: string; source: { path?: string } }>;
}

interface Asset {
  name: string;
  hash: string;
  /** The asset's folder or file in the assembly. */
  path: string;
}

/** Every file asset of the assembly in `outdir`, named by its display name. */
function assetsOf(outdir: string): Asset[] {
  return readdirSync(outdir)
    .filter((name) => name.endsWith('.assets.json'))
    .flatMap((file) => {
      const manifest = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as AssetManifest;
      return Object.entries(manifest.files ?? {}).map(([hash, asset]) => ({
        name: asset.displayName ?? asset.source.path ?? hash,
        hash,
        path: join(outdir, asset.source.path ?? ''),
      }));
    });
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
  const assets = assetsOf(assembly);
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

it('bundles each kind of function byte for byte as the stack does, from another directory', async () => {
  const here = new Set(assetsOf((await synthesizedAssembly()).directory).map((asset) => asset.hash));
  elsewhere = mkdtempSync(join(tmpdir(), 'platform-elsewhere-'));
  const copy = join(elsewhere, 'a', 'clone', 'somewhere', 'else');
  for (const input of SYNTHESIS_INPUTS) cpSync(join(repoRoot, input), join(copy, input), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const outdir = join(elsewhere, 'assembly');
  mkdirSync(outdir);
  // Through npx, as `cdk synth` bundles: the run's own synthesis calls esbuild directly
  // (test/support/direct-esbuild.ts), so the same bytes here show that changes nothing either.
  await run(process.execPath, [join(copy, 'test', 'support', 'synth-sample.ts'), outdir], {
    cwd: copy,
    env: { ...process.env, PATH: pathWithoutDirectEsbuild() },
    maxBuffer: 64 * 1024 * 1024,
  });
  const samples = assetsOf(outdir).filter((asset) => bundled(asset));
  expect(samples.map((asset) => asset.name).sort()).toEqual(
    ['docs', 'get-project', 'key-signing-public-key', 'platform-fallback', 'webhook-fan-out'].map(
      (name) => `${name}/Code`,
    ),
  );
  // Named, so that a failure says which kind of function came out otherwise.
  expect(samples.filter((asset) => !here.has(asset.hash)).map((asset) => asset.name)).toEqual([]);
}, 300_000);
