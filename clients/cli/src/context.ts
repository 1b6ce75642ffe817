import { PlatformClient } from '@platform-api/client';
import type { Context } from './command.ts';
import { type Credentials, readCredentials } from './credentials.ts';
import { CliError, type Flags, string } from './flags.ts';
import type { IO } from './io.ts';

// The servers and the key a command talks to (flags, then environment, then what `login` stored),
// and the questions it may ask.

const DEFAULT_API_URL = 'http://localhost:3000/v1';

export function contextOf(flags: Flags, args: string[], io: IO): Context {
  const { env } = io;
  let stored: Promise<Credentials | undefined> | undefined;
  const credentials = () => {
    stored ??= readCredentials(env);
    return stored;
  };
  const servers = async () => {
    const saved = await credentials();
    const apiUrl = string(flags, 'api-url') ?? env.PLATFORM_API_URL;
    const backendUrl = string(flags, 'backend-url') ?? env.PLATFORM_BACKEND_URL;
    if (apiUrl) return { baseUrl: apiUrl, ...(backendUrl ? { backendUrl } : {}) };
    return {
      baseUrl: saved?.baseUrl ?? DEFAULT_API_URL,
      ...(backendUrl || saved ? { backendUrl: backendUrl ?? saved?.backendUrl } : {}),
    };
  };
  return {
    flags,
    args,
    io,
    anonymous: async () => new PlatformClient(await servers()),
    async client() {
      const apiKey = env.PLATFORM_API_KEY || (await credentials())?.apiKey;
      if (!apiKey)
        throw new CliError('not_logged_in', 'Not logged in: run `platform login`, or set PLATFORM_API_KEY');
      return new PlatformClient({ ...(await servers()), apiKey });
    },
    async confirm(what) {
      if (flags.yes) return;
      if (!io.interactive) {
        throw new CliError(
          'usage_error',
          `${what} This cannot be undone: pass --yes (there is no terminal to ask on)`,
        );
      }
      if (!/^y(es)?$/i.test(await io.ask(`${what} [y/N] `)))
        throw new CliError('usage_error', 'Not confirmed: nothing done');
    },
    progress(line) {
      (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
    },
  };
}
