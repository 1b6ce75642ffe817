import { PlatformClient } from '@platform-api/client';
import type { Context, TeamChoice } from './command.ts';
import { type Credentials, readCredentials } from './credentials.ts';
import { CliError, type Flags, string } from './flags.ts';
import type { IO } from './io.ts';
import { readSettings } from './settings.ts';
import { teamId, tokenTeamId } from './team-ref.ts';
import { isTeamToken } from './team-token.ts';
import { noteTypedNames, rememberTypedName } from './typed-names.ts';
import { cliUserAgent } from './version.ts';

// The servers, the key and the team a command talks to (flags, then environment, then what `login`
// and `switch` stored), and the questions it may ask. The key is PLATFORM_API_KEY, else the stored
// login's; a team token there acts in its own team, so the login's switched team is not its.

const DEFAULT_API_URL = 'http://localhost:3000/v1';

/**
 * The global fetch, with its failure to reach a server told as the CLI tells it: which URL, and which
 * setting chose the server (fetch's own says `fetch failed`, and a person cannot tell from it whether
 * the service is down or the URL wrong).
 */
const naming =
  (from: string) =>
  async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await globalThis.fetch(url, init);
    } catch (error) {
      // A network failure (ECONNREFUSED, ENOTFOUND, undici's UND_ERR_SOCKET...), not a bad URL.
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      // By name: fetch's TypeError may be of another realm than this module's (a test's vm).
      if (
        (error as Error).name !== 'TypeError' ||
        typeof cause !== 'string' ||
        !/^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(cause)
      )
        throw error;
      throw new CliError(
        'connection_error',
        `Could not reach ${url} (${cause}); ${from}: is it running (npm start)? Else set PLATFORM_API_URL or --api-url`,
        1,
      );
    }
  };

export function contextOf(flags: Flags, args: string[], io: IO): Context {
  const { env } = io;
  let stored: Promise<Credentials | undefined> | undefined;
  const credentials = () => {
    stored ??= readCredentials(env);
    return stored;
  };
  const servers = async () => {
    const saved = await credentials();
    const flagUrl = string(flags, 'api-url');
    const apiUrl = flagUrl ?? env.PLATFORM_API_URL;
    const backendUrl = string(flags, 'backend-url') ?? env.PLATFORM_BACKEND_URL;
    if (apiUrl) {
      const from = `the server comes from ${flagUrl ? '--api-url' : 'PLATFORM_API_URL'}`;
      return { baseUrl: apiUrl, ...(backendUrl ? { backendUrl } : {}), fetch: naming(from) };
    }
    const from = saved?.baseUrl
      ? 'the server comes from what `platform login` saved'
      : `the server is the default (${DEFAULT_API_URL})`;
    return {
      baseUrl: saved?.baseUrl ?? DEFAULT_API_URL,
      ...(backendUrl || saved ? { backendUrl: backendUrl ?? saved?.backendUrl } : {}),
      fetch: naming(from),
    };
  };
  // Every client the command makes: on the servers in effect, naming the CLI in its User-Agent.
  const clientOptions = async () => ({ ...(await servers()), userAgent: cliUserAgent() });
  const apiKey = async () => env.PLATFORM_API_KEY || (await credentials())?.apiKey;
  const teamChoice = async (): Promise<TeamChoice | undefined> => {
    const flag = string(flags, 'team');
    if (flag) return { ref: flag, from: 'flag' };
    if (env.PLATFORM_TEAM) return { ref: env.PLATFORM_TEAM, from: 'env' };
    if (isTeamToken(await apiKey())) return undefined;
    const { team } = await readSettings(env);
    return team ? { ref: team, from: 'switched' } : undefined;
  };
  const typedNames = new Map<string, string>();
  return {
    flags,
    args,
    io,
    typedNames,
    teamChoice,
    anonymous: async () => new PlatformClient(await clientOptions()),
    async client() {
      const key = await apiKey();
      if (!key)
        throw new CliError('not_logged_in', 'Not logged in: run `platform login`, or set PLATFORM_API_KEY');
      const client = new PlatformClient({ ...(await clientOptions()), apiKey: key });
      noteTypedNames(client, typedNames);
      const choice = await teamChoice();
      if (!choice) return client;
      // A name costs a walk of the user's teams; an id (what `switch` stores) costs nothing. A team
      // token has no teams to walk, and one GET says whether the team named is its own.
      client.teamId = isTeamToken(key) ? await tokenTeamId(client, choice) : await teamId(client, choice.ref);
      rememberTypedName(client, client.teamId, choice.ref);
      return client;
    },
    async confirm(what) {
      if (flags.yes) return;
      if (!io.interactive) {
        throw new CliError('usage_error', `${what} Pass --yes to go ahead (there is no terminal to ask on)`);
      }
      if (!/^y(es)?$/i.test(await io.ask(`${what} [y/N] `)))
        throw new CliError('usage_error', 'Not confirmed: nothing done');
    },
    progress(line) {
      (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
    },
  };
}
