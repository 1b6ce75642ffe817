import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

// Stack traces of the deployed functions, resolved offline. The functions run without
// --enable-source-maps (it made every cold start dearer), so a logged trace points into the
// minified index.js, with the function names kept (esbuild keepNames). The source map that the
// bundling writes beside index.js, in the same deployment package, takes each position back to its
// .ts file and line. infra/scripts/resolve-stack-trace.ts is the command.

/** A position in the bundle (`index.js:25:25767`, 1-based as V8 prints them). */
const BUNDLE_POSITION = /(?:\/[^\s():]*\/)?index\.js:(\d+):(\d+)/g;

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

/** A source as the map names it (relative to where the bundle was built), made readable. */
function sourceName(source: string, mapFile: string, root: string): string {
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
