import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { CliError, collect, defined, integer, LIST_OPTIONS, required, strings } from '../flags.ts';
import { fields, listOutput } from '../output.ts';
import { projectId } from '../project-ref.ts';
import { teamInEffect } from '../team-ref.ts';
import { withTypedNames } from '../typed-names.ts';

// `platform tokens list|create|revoke`: the team tokens of the team in effect (admins), the keys a CI
// system holds. A token acts as its team, within its projects and targets, until it expires or is
// revoked (revoked ones stay listed, with `revokedAt`); its secret is shown once, at creation.

type CreateBody = Schemas['CreateTeamTokenBody'];

const TOKEN_COLUMNS: (keyof Schemas['TeamToken'])[] = [
  'id',
  'name',
  'prefix',
  'scopes',
  'projectIds',
  'targets',
  'expiresAt',
  'lastUsedAt',
  'revokedAt',
];

/** A repeatable flag that must be given at least once. */
function requiredList(flags: Parameters<typeof strings>[0], name: string): string[] {
  const values = strings(flags, name);
  if (!values?.length) throw new CliError('usage_error', `--${name} is required`);
  return values;
}

export const tokenCommands: Commands = {
  'tokens list': {
    usage: 'tokens list [--limit <n>]',
    summary: 'List the team tokens of the team in effect, revoked ones too (never their secrets).',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      const api = await client();
      const tokens = api.teamTokens.list(await teamInEffect(api), { limit: 100 });
      return listOutput(await collect(tokens, flags), TOKEN_COLUMNS);
    },
  },
  'tokens create': {
    usage:
      'tokens create --name <name> --scope read|write|build... --expires-in-days <1-365> [--project <id or name>...] [--target production|preview...]',
    summary: 'Make a team token for CI in the team in effect and print its secret, shown this once.',
    options: {
      name: { type: 'string', help: "the token's name, 1 to 100 characters" },
      scope: {
        type: 'string',
        multiple: true,
        help: 'what it may do: read, write or build; repeat it or give a comma list',
      },
      project: {
        type: 'string',
        multiple: true,
        help: 'a project it may reach, by id or name; repeat it or give a comma list (default: all)',
      },
      target: {
        type: 'string',
        multiple: true,
        help: 'a target it may act on, production or preview; repeat or give a comma list (default: both)',
      },
      'expires-in-days': { type: 'string', help: 'its lifetime in days, 1 to 365 (no token lives forever)' },
    },
    async run({ flags, client, typedNames }) {
      const name = required(flags, 'name');
      const scopes = requiredList(flags, 'scope') as CreateBody['scopes'];
      const expiresInDays = integer(flags, 'expires-in-days');
      if (expiresInDays === undefined) {
        throw new CliError('usage_error', '--expires-in-days is required (1 to 365): no token lives forever');
      }
      const api = await client();
      const team = await teamInEffect(api);
      const projects = strings(flags, 'project');
      const body: CreateBody = defined({
        name,
        scopes,
        expiresInDays,
        projectIds: projects && (await Promise.all(projects.map((ref) => projectId(api, ref)))),
        targets: strings(flags, 'target') as CreateBody['targets'],
      });
      const created = await api.teamTokens.create(team, body);
      return {
        json: created,
        text: [
          fields(created.token),
          '',
          `The token, shown this once: store it now (in your CI's secrets), as it cannot be shown again.`,
          `Whoever holds it acts as team ${withTypedNames(team, typedNames)} until ${created.token.expiresAt}, or until \`platform tokens revoke ${created.token.id}\`.`,
          created.apiKey,
        ].join('\n'),
      };
    },
  },
  'tokens revoke': {
    usage: 'tokens revoke <token id> [--yes]',
    summary: 'Revoke a team token of the team in effect, effective on its next request.',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      const team = await teamInEffect(api);
      await confirm(`Revoke team token ${id}? Whatever uses it is refused from its next request.`);
      await api.teamTokens.revoke(team, id);
      return { json: { id, revoked: true }, text: `Revoked team token ${id}` };
    },
  },
};
