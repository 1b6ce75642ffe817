import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, LIST_OPTIONS } from '../flags.ts';
import { listOutput } from '../output.ts';
import { teamInEffect } from '../team-ref.ts';

// `platform invitations accept <code>` (joining a team with the code its inviter passed on), and the
// open invitations of the team in effect: `invitations list|revoke`. Inviting is `teams invite`.

const INVITATION_COLUMNS: (keyof Schemas['Invitation'])[] = ['id', 'email', 'role', 'createdAt', 'expiresAt'];

export const invitationCommands: Commands = {
  'invitations accept': {
    usage: 'invitations accept <code>',
    summary: 'Join a team with the code of an invitation to your email.',
    args: ['code'],
    async run({ args: [code = ''], client }) {
      const accepted = await (await client()).teams.acceptInvitation({ code });
      const { team, role } = accepted;
      return {
        json: accepted,
        text: `Joined ${team.name} (${team.id}) as ${role}: \`platform switch ${team.id}\` to act in it`,
      };
    },
  },
  'invitations list': {
    usage: 'invitations list [--limit <n>]',
    summary: 'List the open invitations of the team in effect, newest first (never their codes).',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      const api = await client();
      const invitations = api.teams.listInvitations(await teamInEffect(api), { limit: 100 });
      return listOutput(await collect(invitations, flags), INVITATION_COLUMNS);
    },
  },
  'invitations revoke': {
    usage: 'invitations revoke <invitation id> [--yes]',
    summary: 'Revoke an open invitation of the team in effect: its code stops working.',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      const team = await teamInEffect(api);
      await confirm(`Revoke invitation ${id}? Its code stops working.`);
      await api.teams.revokeInvitation(team, id);
      return { json: { id, revoked: true }, text: `Revoked invitation ${id}` };
    },
  },
};
