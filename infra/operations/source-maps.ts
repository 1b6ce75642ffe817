import { readFileSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

// Stack traces of the deployed functions, resolved offline. The functions run without
// --enable-source-maps (it made every cold start dearer), so a logged trace points into the
// minified index.js, with the function names kept (esbuild keepNames). The source map that the
// bundling writes beside index.js, in the same deployment package, takes each position back to its
// .ts file and line. infra/scripts/resolve-stack-trace.ts is the command.
//
// esbuild names a map's sources relative to the folder it writes the bundle to, which is inside the
// cloud assembly: `../../../home/ci/clone/functions/get-project.ts`. That path differs with where the
// clone and the assembly are, and the map is part of the asset, so the same commit built in two
// places got two asset hashes (every function updated, every container cold, for no change), and the
// maps carried the builder's directories. The bundling rewrites them (`rootRelativeSourceMap`, run
// after esbuild by infra/api/endpoint-function.ts): a source in the repository is named from its root
// (`functions/projects/get-project.ts`), a package's from its `node_modules` folder, wherever that is.

/** `path` from the repository `root`, or from its `node_modules` folder; `/`-separated. */
function rootRelative(path: string, root: string): string {
  const fromRoot = relative(root, path);
  if (!fromRoot.startsWith('..') && !isAbsolute(fromRoot)) return fromRoot.split(sep).join('/');
  const parts = path.split(sep);
  const packages = parts.indexOf('node_modules');
  return packages >= 0 ? parts.slice(packages).join('/') : fromRoot.split(sep).join('/');
}

/** The map at `mapFile` with its sources named from the repository `root` (written in place). */
export function rootRelativeSourceMap(mapFile: string, root: string): void {
  const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload;
  const base = resolve(dirname(mapFile), payload.sourceRoot ?? '');
  const sources = payload.sources.map((source) =>
    rootRelative(source.startsWith('file://') ? new URL(source).pathname : resolve(base, source), root),
  );
  const { sourceRoot: _root, ...rest } = payload;
  writeFileSync(mapFile, JSON.stringify({ ...rest, sources }));
}

/**
 * The trace with every position in the bundle replaced by its source position. `mapFile` is the
 * bundle's index.js.map; sources are named relative to `root` when they lie under it.
 */
export function resolveStackTrace(
  trace: string,
  payload: SourceMapPayload,
  mapFile: string,
  root: string,
): string {
  const map = new SourceMap(payload);
  return trace.replace(BUNDLE_POSITION, (position, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry)) return position;
    return `${sourceName(entry.originalSource, mapFile, root)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** A position in the bundle (`index.js:25:25767`, 1-based as V8 prints them). */
const BUNDLE_POSITION = /(?:\/[^\s():]*\/)?index\.js:(\d+):(\d+)/g;

/**
 * A source as the map names it, made readable: as it is when named from the repository root (maps
 * built since the rewrite above); a map from before names it from where its bundle was built.
 */
function sourceName(source: string, mapFile: string, root: string): string {
  if (!source.startsWith('../') && !source.startsWith('file://') && !isAbsolute(source)) return source;
  const path = source.startsWith('file://') ? new URL(source).pathname : resolve(dirname(mapFile), source);
  const fromRoot = relative(root, path);
  if (!fromRoot.startsWith('..') && !isAbsolute(fromRoot)) return fromRoot;
  return source.replace(/^(\.\.\/)+/, '');
}

/** The stack of a log line (the `error.stack` of an error line), or the text itself when it is a plain trace. */
export function stackOf(text: string): string {
  try {
    const line: unknown = JSON.parse(text);
    if (typeof line === 'object' && line !== null && 'error' in line) {
      const { error } = line as { error: { stack?: unknown } };
      if (typeof error.stack === 'string') return error.stack;
    }
  } catch {
    // Not a JSON log line: a trace as it was copied.
  }
  return text;
}
