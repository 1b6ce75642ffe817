import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

// The CLI's own files (the stored key, the switched team): in `$XDG_CONFIG_HOME/platform/`
// (`~/.config` when unset), readable by their owner only.

/** `$XDG_CONFIG_HOME/platform/<name>`, `~/.config` when unset. */
export function configPath(env: NodeJS.ProcessEnv, name: string): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'platform', name);
}

/** A JSON file's value, or undefined when there is no such file. */
export async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes the file readable by its owner only (0600, in a 0700 folder), whatever was there before: the
 * value goes into a new file that is 0600 from its creation, which then replaces the old one, so it is
 * never in a file someone else could open (an old file's wider mode, or a reader holding it open).
 */
export async function writePrivateJson(path: string, value: unknown): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const fresh = join(folder, `.${randomUUID()}.json`);
  try {
    await writeFile(fresh, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(fresh, path);
  } catch (error) {
    await rm(fresh, { force: true });
    throw error;
  }
}

export const forget = (path: string): Promise<void> => rm(path, { force: true });
