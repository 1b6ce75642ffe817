import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, defined, integer, LIST_OPTIONS, list, required, string } from '../flags.ts';
import { fields, listOutput } from '../output.ts';

// `platform keys list|create|revoke`: the user's API keys.

const KEY_COLUMNS: (keyof Schemas['ApiKey'])[] = ['id', 'name', 'prefix', 'last4', 'scopes', 'expiresAt'];

export const keyCommands: Commands = {
  'keys list': {
    usage: 'keys list [--limit <n>]',
    summary: 'List your API keys, newest first (never their secrets).',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).keys.list({ limit: 100 }), flags), KEY_COLUMNS),
  },
  'keys create': {
    usage: 'keys create --name <name> [--scopes read,write,build] [--expires-in-days <n>]',
    summary: 'Create an API key of your own and print it, shown this once.',
    options: {
      name: { type: 'string', help: "the key's name, 1 to 100 characters" },
      scopes: {
        type: 'string',
        help: 'what it may do, comma-separated: read, write, build (default: those of the key in use)',
      },
      'expires-in-days': {
        type: 'string',
        help: 'its lifetime in days, 1 to 365 (default 30, never past the expiry of the key in use)',
      },
    },
    async run({ flags, client }) {
      const body = defined({
        name: required(flags, 'name'),
        scopes: list(string(flags, 'scopes')) as Schemas['CreateKeyBody']['scopes'],
        expiresInDays: integer(flags, 'expires-in-days'),
      });
      const created = await (await client()).keys.create(body);
      return {
        json: created,
        text: `${fields(created.key)}\n\nThe key (shown this once):\n${created.apiKey}`,
      };
    },
  },
  'keys revoke': {
    usage: 'keys revoke <id> [--yes]',
    summary: 'Revoke one of your API keys, effective on its next request.',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Revoke key ${id}?`);
      await api.keys.revoke(id);
      return { json: { id, revoked: true }, text: `Revoked key ${id}` };
    },
  },
};
