import { PlatformError } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { forgetCredentials, writeCredentials } from '../credentials.ts';
import { CliError, string } from '../flags.ts';
import { forgetSettings } from '../settings.ts';
import { isTeamToken } from '../team-token.ts';

// `platform login` and `platform logout`: the key a user's commands run with, kept in a file only its
// owner can read. Both forget the team `platform switch` chose, which was the login's.

export const authCommands: Commands = {
  login: {
    usage: 'login [--email <email>] [--password <password>] [--print-key]',
    summary: 'Log in with your email and password, and store the key your commands run with.',
    options: {
      email: { type: 'string', help: 'your email (PLATFORM_EMAIL; else asked on the terminal)' },
      password: {
        type: 'string',
        help: 'your password (PLATFORM_PASSWORD; else asked on the terminal, unechoed)',
      },
      'print-key': {
        type: 'boolean',
        help: 'print the new key too, with or without --json (it is stored either way)',
      },
    },
    async run({ flags, io, anonymous }) {
      let email = string(flags, 'email') ?? io.env.PLATFORM_EMAIL;
      let password = string(flags, 'password') ?? io.env.PLATFORM_PASSWORD;
      if ((!email || !password) && !io.interactive) {
        throw new CliError(
          'usage_error',
          'Give --email and --password (or PLATFORM_EMAIL and PLATFORM_PASSWORD): there is no terminal to ask on',
        );
      }
      email ||= await io.ask('Email: ');
      password ||= await io.askHidden('Password: ');
      const client = await anonymous();
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
        json: flags['print-key'] ? result : shown,
        text: `Logged in as ${result.user.email}; the key expires ${result.expiresAt} and is stored in ${path}${flags['print-key'] ? `\n${apiKey}` : ''}`,
      };
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
