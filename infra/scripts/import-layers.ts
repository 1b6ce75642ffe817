import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The layers of shared/, bottom first: a file may import its own layer and the layers below it,
// never one above. Biome enforces it (biome.json, noRestrictedImports per folder; a unit test keeps
// those lists equal to what this order implies); this script counts the imports that break it, so
// the count can be taken on any commit: `npm run layers [-- <root>]`.

/** Bottom first. `routes` is the route table and the consumer list (shared/routes.ts, consumers.ts). */
export const LAYERS = [
  'runtime',
  'model',
  'schemas',
  'db',
  'webhooks',
  'domain',
  'routes',
  'http',
  'openapi',
] as const;

export type Layer = (typeof LAYERS)[number];

const TABLE_FILES = new Set(['routes.ts', 'consumers.ts']);

/** The layer of a path relative to the repository root, or undefined outside the layers. */
export function layerOf(path: string): Layer | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'shared') return undefined;
  if (parts.length === 2) return TABLE_FILES.has(parts[1] ?? '') ? 'routes' : undefined;
  return LAYERS.find((layer) => layer === parts[1]);
}

/** What a layer's files may not import: every layer above it. */
export const forbiddenFor = (layer: Layer): Layer[] => LAYERS.slice(LAYERS.indexOf(layer) + 1);

/** The import specifiers that reach a layer's files, as Biome matches them. */
export const specifiersOf = (layer: Layer): string[] =>
  layer === 'routes' ? [...TABLE_FILES].map((file) => `#shared/${file}`) : [`#shared/${layer}/**`];

export interface UpwardImport {
  file: string;
  line: number;
  target: string;
  from: Layer;
  to: Layer;
}

const IMPORT = /(?:from|import\()\s*'([^']+)'/g;

function targetOf(root: string, file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#shared/')) return `shared/${specifier.slice('#shared/'.length)}`;
  if (specifier.startsWith('.')) return relative(root, resolve(root, dirname(file), specifier));
  return undefined;
}

function* sourceFiles(root: string, dir: string): Generator<string> {
  const entries = readdirSync(join(root, dir), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(root, path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Every import line in shared/ that reaches a layer above its own. */
export function upwardImports(root: string): UpwardImport[] {
  const found: UpwardImport[] = [];
  for (const file of sourceFiles(root, 'shared')) {
    const from = layerOf(file);
    if (from === undefined) continue;
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        for (const match of text.matchAll(IMPORT)) {
          const target = targetOf(root, file, match[1] ?? '');
          const to = target === undefined ? undefined : layerOf(target);
          if (target !== undefined && to !== undefined && LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
            found.push({ file, line: index + 1, target, from, to });
          }
        }
      });
  }
  return found;
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? '.');
  const found = upwardImports(root);
  for (const hit of found) console.log(`${hit.file}:${hit.line}  ${hit.from} -> ${hit.to}  (${hit.target})`);
  console.log(`${found.length} upward import lines in ${join(root, 'shared')}`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
