import { configPath, forget, readJson, writePrivateJson } from './private-file.ts';

/** What `platform login` keeps: the key and the servers it was issued by. */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
  backendUrl: string;
  email: string;
  expiresAt: string;
}

/** `$XDG_CONFIG_HOME/platform/credentials.json`, `~/.config` when unset. */
export const credentialsPath = (env: NodeJS.ProcessEnv): string => configPath(env, 'credentials.json');

export const readCredentials = (env: NodeJS.ProcessEnv): Promise<Credentials | undefined> =>
  readJson<Credentials>(credentialsPath(env));

/** Stores the key (0600, never into the file that was there before: private-file.ts); the path. */
export async function writeCredentials(env: NodeJS.ProcessEnv, credentials: Credentials): Promise<string> {
  const path = credentialsPath(env);
  await writePrivateJson(path, credentials);
  return path;
}

export const forgetCredentials = (env: NodeJS.ProcessEnv): Promise<void> => forget(credentialsPath(env));
