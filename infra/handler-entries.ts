import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// Where each Lambda handler's entry file is: `functions/<feature>/<handler>.ts`. A handler is known
// everywhere else (route rows, consumers, grants, roles, bundles, metrics) by its file's name alone,
// so a file moves between feature folders without renaming its function or replacing a resource;
// two files of one name would leave a name ambiguous, and fail here.

export const FUNCTIONS_DIR = join(import.meta.dirname, '..', 'functions');

let index: ReadonlyMap<string, string> | undefined;

/** Every handler's entry file by the handler's name, read from the folders once. */
export function handlerEntries(): ReadonlyMap<string, string> {
  if (index) return index;
  const found = new Map<string, string>();
  for (const feature of readdirSync(FUNCTIONS_DIR, { withFileTypes: true })) {
    if (!feature.isDirectory()) {
      throw new Error(
        `functions/${feature.name}: each handler lives in a feature folder, functions/<feature>/`,
      );
    }
    for (const file of readdirSync(join(FUNCTIONS_DIR, feature.name)).sort()) {
      if (!file.endsWith('.ts')) continue;
      const handler = file.slice(0, -'.ts'.length);
      const entry = join(FUNCTIONS_DIR, feature.name, file);
      const other = found.get(handler);
      if (other !== undefined) throw new Error(`Two handlers are named ${handler}: ${other} and ${entry}`);
      found.set(handler, entry);
    }
  }
  index = found;
  return found;
}

/** The entry file of the handler `name`. */
export function handlerEntry(name: string): string {
  const entry = handlerEntries().get(name);
  if (entry === undefined) throw new Error(`No handler named ${name}: no functions/<feature>/${name}.ts`);
  return entry;
}
