import { configPath, forget, readJson, writePrivateJson } from './private-file.ts';

// What `platform switch` remembers (as `vercel switch` does): the team commands act in when neither
// --team nor PLATFORM_TEAM names one. It belongs to the login: `login` and `logout` forget it.

export interface Settings {
  /** The team id `platform switch` chose. */
  team?: string;
}

/** `$XDG_CONFIG_HOME/platform/config.json`. */
export const settingsPath = (env: NodeJS.ProcessEnv): string => configPath(env, 'config.json');

export const readSettings = async (env: NodeJS.ProcessEnv): Promise<Settings> =>
  (await readJson<Settings>(settingsPath(env))) ?? {};

export const writeSettings = (env: NodeJS.ProcessEnv, settings: Settings): Promise<void> =>
  writePrivateJson(settingsPath(env), settings);

export const forgetSettings = (env: NodeJS.ProcessEnv): Promise<void> => forget(settingsPath(env));
