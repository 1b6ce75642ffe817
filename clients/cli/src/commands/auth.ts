import { type PlatformClient, PlatformError } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { credentialsPath, forgetCredentials, readCredentials, writeCredentials } from '../credentials.ts';
import { CliError, type Flags, type Option, string } from '../flags.ts';
import type { IO } from '../io.ts';
import { forgetSettings } from '../settings.ts';
import { chosenBy, personalTeam } from '../team-ref.ts';
import { isTeamToken, TEAM_TOKEN_ACTS_IN_ITS_TEAM } from '../team-token.ts';

// `platform register`, `login`, `logout` and `whoami`: the key a user's commands run with, kept in a
// file only its owner can read. Logging in or out forgets the team `platform switch` chose, which was
// the previous login's.

/** Email and password from the flags, the environment, or the terminal (the password unechoed). */
async function emailAndPassword(flags: Flags, io: IO, confirm: boolean) {
  let email = string(flags, 'email') ?? io.env.PLATFORM_EMAIL;
  let password = string(flags, 'password') ?? io.env.PLATFORM_PASSWORD;
  if ((!email || !password) && !io.interactive) {
    throw new CliError(
      'usage_error',
      'Give --email and --password (or PLATFORM_EMAIL and PLATFORM_PASSWORD): there is no terminal to ask on',
    );
  }
  email ||= await io.ask('Email: ');
  if (!password) {
    password = await io.askHidden('Password: ');
    if (confirm && (await io.askHidden('The password again: ')) !== password)
      throw new CliError('usage_error', 'The two passwords differ: nothing was registered');
  }
  return { email, password };
}

/** Logs in, stores the key, forgets the previous login's team; what `login` and `register` print. */
async function logIn(client: PlatformClient, io: IO, email: string, password: string, printKey: boolean) {
  const result = await client.auth.login({ email, password });
  const path = await writeCredentials(io.env, {
    apiKey: result.apiKey,
    baseUrl: client.baseUrl,
    backendUrl: client.backendUrl,
    email: result.user.email,
    expiresAt: result.expiresAt,
  });
  // The team `switch` chose was the previous login's.
  await forgetSettings(io.env);
  const { apiKey, ...shown } = result;
  return {
    json: printKey ? result : shown,
    text: `Logged in as ${result.user.email}; the key expires ${result.expiresAt} and is stored in ${path}${printKey ? `\n${apiKey}` : ''}`,
  };
}

const CREDENTIAL_OPTIONS: Record<string, Option> = {
  email: { type: 'string', help: 'your email (PLATFORM_EMAIL; else asked on the terminal)' },
  password: {
    type: 'string',
    help: 'your password (PLATFORM_PASSWORD; else asked on the terminal, unechoed)',
  },
  'print-key': {
    type: 'boolean',
    help: 'print the new key too, with or without --json (it is stored either way)',
  },
};

export const authCommands: Commands = {
  register: {
    usage: 'register [--email <email>] [--password <password>] [--print-key]',
    summary: 'Make an account with your email and a password (8 characters or more), and log in.',
    options: CREDENTIAL_OPTIONS,
    async run({ flags, io, anonymous }) {
      const { email, password } = await emailAndPassword(flags, io, true);
      const client = await anonymous();
      const user = await client.auth.register({ email, password });
      const loggedIn = await logIn(client, io, email, password, flags['print-key'] === true);
      return {
        json: { user, ...(loggedIn.json as object) },
        text: `Registered ${user.email}. ${loggedIn.text}`,
      };
    },
  },
  whoami: {
    usage: 'whoami',
    summary: 'Say who the key in effect is, where it came from, and which team commands act in.',
    async run({ io, client, teamChoice }) {
      const api = await client();
      const stored = await readCredentials(io.env);
      const from = io.env.PLATFORM_API_KEY
        ? 'PLATFORM_API_KEY'
        : `the login stored in ${credentialsPath(io.env)}`;
      const choice = await teamChoice();
      if (isTeamToken(api.apiKey)) {
        const team = api.teamId ?? null;
        return {
          json: {
            type: 'team-token',
            keyFrom: from,
            team: team && { id: team, chosenBy: choice?.from ?? null },
          },
          text: [
            `A team token (from ${from}): ${TEAM_TOKEN_ACTS_IN_ITS_TEAM}.`,
            team && choice ? `Team: ${team}, chosen by ${chosenBy[choice.from]}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        };
      }
      // The personal team has one member: the key's user, with their email.
      const personal = await personalTeam(api);
      const [me] = (await api.teams.listMembers(personal.id).page()).members;
      const team = api.teamId ? await api.teams.get(api.teamId) : personal;
      const email = me?.email ?? (stored?.apiKey === api.apiKey ? stored?.email : undefined);
      return {
        json: {
          type: 'user',
          email: email ?? null,
          userId: me?.userId ?? null,
          keyFrom: from,
          team: { id: team.id, name: team.name, personal: team.personal, chosenBy: choice?.from ?? null },
        },
        text: [
          `${email ?? 'A user'} (key from ${from})`,
          `Team: ${team.personal ? 'your personal team' : team.name} (${team.id})${choice ? `, chosen by ${chosenBy[choice.from]}` : ''}`,
        ].join('\n'),
      };
    },
  },
  login: {
    usage: 'login [--email <email>] [--password <password>] [--print-key]',
    summary: 'Log in with your email and password, and store the key your commands run with.',
    options: CREDENTIAL_OPTIONS,
    async run({ flags, io, anonymous }) {
      const { email, password } = await emailAndPassword(flags, io, false);
      return logIn(await anonymous(), io, email, password, flags['print-key'] === true);
    },
  },
  logout: {
    usage: 'logout',
    summary: 'Revoke the key in effect and forget the stored login and the team `platform switch` chose.',
    async run({ io, client }) {
      const api = await client();
      // A team token is the team's, not a login's: revoking it by accident would stop its CI.
      if (isTeamToken(api.apiKey)) {
        throw new CliError(
          'usage_error',
          'The key in effect is a team token, not a login: `platform tokens revoke <id>` revokes it (an admin, with their own key)',
        );
      }
      let revoked = true;
      try {
        await api.auth.logout();
      } catch (error) {
        // Expired or already revoked: nothing is left to revoke, the local copy still goes.
        if (!(error instanceof PlatformError && error.status === 401)) throw error;
        revoked = false;
      }
      await Promise.all([forgetCredentials(io.env), forgetSettings(io.env)]);
      return {
        json: { loggedOut: true, revoked },
        text: revoked
          ? 'Logged out: the key is revoked and forgotten'
          : 'Logged out: the key had already expired',
      };
    },
  },
};
