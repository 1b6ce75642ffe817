import type { PlatformClient, Schemas } from '@platform-api/client';
import type { Commands, Context } from '../command.ts';
import { CliError, collect, LIST_OPTIONS, required } from '../flags.ts';
import { listOutput, objectOutput, table } from '../output.ts';
import { readSettings, writeSettings } from '../settings.ts';
import { chosenBy, personalTeam, teamId, teamInEffect, teamOf } from '../team-ref.ts';
import { isTeamToken, TEAM_TOKEN_ACTS_IN_ITS_TEAM } from '../team-token.ts';

// `platform teams list|create|get|rename|delete` (a team named by its id or name), the members of
// the team in effect (`teams members|invite|remove|role`), `platform switch` (the team commands act
// in, remembered like `vercel switch`) and `platform roles` (what each role may do, from the API).

// The roles are the API's to list (`platform roles`) and to check (a 400 naming `role`): no copy here.
type Role = Schemas['Member']['role'];

const TEAM_COLUMNS = ['current', 'id', 'name', 'role', 'personal'] as const;
const MEMBER_COLUMNS: (keyof Schemas['Member'])[] = ['userId', 'email', 'name', 'role', 'joinedAt'];

/** A member of the team by their user id (`usr_…`) or email. */
async function memberOf(client: PlatformClient, team: string, ref: string): Promise<Schemas['Member']> {
  for await (const member of client.teams.listMembers(team, { limit: 100 })) {
    if (member.userId === ref || member.email.toLowerCase() === ref.toLowerCase()) return member;
  }
  throw new CliError('not_found', `Team ${team} has no member with the user id or email ${ref}`, 1);
}

/** `switch` without a team: which team commands act in, and why. */
async function showTeamInEffect({ client, teamChoice }: Context) {
  const api = await client();
  const choice = await teamChoice();
  if (!api.teamId && isTeamToken(api.apiKey)) {
    return {
      json: { team: null, from: 'token' },
      text: 'The key in effect is a team token: commands act in its own team',
    };
  }
  const team = api.teamId ? await api.teams.get(api.teamId) : await personalTeam(api);
  const from = choice ? chosenBy[choice.from] : 'no team chosen: your personal team';
  return {
    json: { team, from: choice?.from ?? 'personal' },
    text: `${team.name} (${team.id}), ${team.role}; from ${from}`,
  };
}

export const teamCommands: Commands = {
  'teams list': {
    usage: 'teams list [--limit <n>]',
    summary: 'List your teams, marking the one commands act in.',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      const api = await client();
      const teams = await collect(api.teams.list({ limit: 100 }), flags);
      const current = api.teamId ?? teams.find((team) => team.personal)?.id;
      const shown = teams.map((team) => ({ ...team, current: team.id === current }));
      return {
        json: shown,
        text: table(
          [...TEAM_COLUMNS],
          shown.map((team) => [
            team.current ? '*' : '',
            team.id,
            team.name,
            team.role,
            String(team.personal),
          ]),
        ),
      };
    },
  },
  'teams create': {
    usage: 'teams create <name>',
    summary: 'Create a team, with you as its owner.',
    args: ['name'],
    run: async ({ args: [name = ''], client }) => objectOutput(await (await client()).teams.create({ name })),
  },
  'teams get': {
    usage: 'teams get [<team id or name>]',
    summary: 'Show a team and your role in it (default: the team in effect).',
    args: ['team?'],
    async run({ args: [ref], client }) {
      const api = await client();
      return objectOutput(await api.teams.get(ref ? await teamId(api, ref) : await teamInEffect(api)));
    },
  },
  'teams rename': {
    usage: 'teams rename <team id or name> <new name>',
    summary: 'Rename a team (admins).',
    args: ['team', 'name'],
    async run({ args: [ref = '', name = ''], client }) {
      const api = await client();
      return objectOutput(await api.teams.update(await teamId(api, ref), { name }));
    },
  },
  'teams delete': {
    usage: 'teams delete <team id or name> [--yes]',
    summary: 'Delete a team that has no projects left (owners; never a personal team).',
    args: ['team'],
    async run({ args: [ref = ''], client, confirm }) {
      const api = await client();
      const id = await teamId(api, ref);
      await confirm(`Delete team ${id}? Its members lose it; it must have no projects left.`);
      await api.teams.delete(id);
      return { json: { id, deleted: true }, text: `Deleted team ${id}` };
    },
  },
  'teams members': {
    usage: 'teams members [--limit <n>]',
    summary: 'List the members of the team in effect and their roles.',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      const api = await client();
      const members = api.teams.listMembers(await teamInEffect(api), { limit: 100 });
      return listOutput(await collect(members, flags), MEMBER_COLUMNS);
    },
  },
  'teams invite': {
    usage: 'teams invite <email> --role <role>',
    summary: 'Invite an email into the team in effect and print its one-use code, shown this once.',
    args: ['email'],
    options: {
      role: { type: 'string', help: "the invitee's role, at most yours (`platform roles` lists them)" },
    },
    async run({ args: [email = ''], flags, client }) {
      const api = await client();
      const role = required(flags, 'role') as Role;
      // No team chosen and a person's key: the team in effect is their personal one, which the API
      // refuses to invite into (409). Say how to get to a team that takes invitations instead.
      if (!api.teamId && !isTeamToken(api.apiKey)) {
        throw new CliError(
          'usage_error',
          'Your personal team takes no invitations: choose a team with `platform switch <team>` or --team <team>, or make one with `platform teams create <name>`',
        );
      }
      const team = await teamInEffect(api);
      const { code, ...invitation } = await api.teams.createInvitation(team, { email, role });
      return {
        json: { ...invitation, code },
        text: [
          objectOutput(invitation).text,
          '',
          `The code (shown this once; pass it on: ${email} runs \`platform invitations accept <code>\`):`,
          code,
        ].join('\n'),
      };
    },
  },
  'teams remove': {
    usage: 'teams remove <member user id or email> [--yes]',
    summary: 'Remove a member from the team in effect (with your own email: leave it).',
    args: ['member'],
    async run({ args: [ref = ''], client, confirm }) {
      const api = await client();
      const team = await teamInEffect(api);
      const member = await memberOf(api, team, ref);
      await confirm(`Remove ${member.email} from team ${team}?`);
      await api.teams.removeMember(team, member.userId);
      return {
        json: { teamId: team, userId: member.userId, removed: true },
        text: `Removed ${member.email} from team ${team}`,
      };
    },
  },
  'teams role': {
    usage: 'teams role <member user id or email> <role>',
    summary: "Change a member's role in the team in effect.",
    args: ['member', 'role'],
    async run({ args: [ref = '', role = ''], client }) {
      const api = await client();
      const team = await teamInEffect(api);
      const member = await memberOf(api, team, ref);
      return objectOutput(await api.teams.updateMember(team, member.userId, { role: role as Role }));
    },
  },
  switch: {
    usage: 'switch [<team id or name>] [--personal]',
    summary: 'Choose the team later commands act in; alone, show the one in effect and why.',
    args: ['team?'],
    options: {
      personal: { type: 'boolean', help: 'go back to your personal team (forget the team chosen)' },
    },
    async run(context) {
      const { args, flags, io, client } = context;
      const [ref] = args;
      if (ref && flags.personal) throw new CliError('usage_error', 'Give a team or --personal, not both');
      if (!ref && !flags.personal) return showTeamInEffect(context);
      const api = await client();
      if (isTeamToken(api.apiKey)) {
        throw new CliError(
          'usage_error',
          `\`platform switch\` chooses a team for a person's login; the key in effect is a team token, and ${TEAM_TOKEN_ACTS_IN_ITS_TEAM}`,
        );
      }
      // The personal team is stored as "none chosen": it is the default, and stays right after a rename.
      const team = ref ? await teamOf(api, ref) : await personalTeam(api);
      await writeSettings(io.env, {
        ...(await readSettings(io.env)),
        team: team.personal ? undefined : team.id,
      });
      return {
        json: team,
        text: `Commands now act in ${team.name} (${team.id}), where you are ${team.role === 'admin' || team.role === 'owner' ? 'an' : 'a'} ${team.role}`,
      };
    },
  },
  roles: {
    usage: 'roles',
    summary: 'List the team roles, lowest first, and what each may do.',
    async run({ client }) {
      const { roles } = await (await client()).teams.listRoles();
      return {
        json: roles,
        text: table(
          ['role', 'permissions'],
          roles.map((role) => [role.name, role.permissions.join(', ')]),
        ),
      };
    },
  },
};
