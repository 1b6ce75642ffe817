import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `platform login` keeps: the key and the servers it was issued by. */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
  backendUrl: string;
  email: string;
  expiresAt: string;
}

/** `$XDG_CONFIG_HOME/platform/credentials.json`, `~/.config` when unset. */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'platform', 'credentials.json');
}

export async function readCredentials(env: NodeJS.ProcessEnv): Promise<Credentials | undefined> {
  try {
    return JSON.parse(await readFile(credentialsPath(env), 'utf8')) as Credentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes the file readable by its owner only (0600, in a 0700 folder), whatever was there before: the
 * key goes into a new file that is 0600 from its creation, which then replaces the old one, so it is
 * never in a file someone else could open (an old file's wider mode, or a reader holding it open).
 */
export async function writeCredentials(env: NodeJS.ProcessEnv, credentials: Credentials): Promise<string> {
  const path = credentialsPath(env);
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const fresh = join(folder, `.credentials-${randomUUID()}.json`);
  try {
    await writeFile(fresh, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(fresh, path);
  } catch (error) {
    await rm(fresh, { force: true });
    throw error;
  }
  return path;
}

export async function forgetCredentials(env: NodeJS.ProcessEnv): Promise<void> {
  await rm(credentialsPath(env), { force: true });
}
