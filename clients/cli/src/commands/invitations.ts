import type { PlatformClient, Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, type Flags, LIST_OPTIONS } from '../flags.ts';
import { listOutput, type Output, table } from '../output.ts';
import { teamInEffect } from '../team-ref.ts';
import { isTeamToken } from '../team-token.ts';

// `platform invitations accept <code>` (joining a team with the code its inviter passed on), the
// invitations sent to you (`invitations mine`), and the open invitations of the team in effect:
// `invitations list|revoke`. Inviting is `teams invite`.

const INVITATION_COLUMNS: (keyof Schemas['Invitation'])[] = ['id', 'email', 'role', 'createdAt', 'expiresAt'];

const ACCEPT_HINT =
  'Accept one with `platform invitations accept <code>`, the code your inviter passed on (it is never listed).';

/** The invitations to the user's email: a table by team name and inviter's email, and how to accept. */
async function receivedOutput(api: PlatformClient, flags: Flags): Promise<Output> {
  const invitations = await collect(api.teams.listReceivedInvitations({ limit: 100 }), flags);
  const rows = invitations.map((invitation) => [
    invitation.id,
    `${invitation.team.name} (${invitation.team.id})`,
    invitation.role,
    invitation.invitedBy.email ?? invitation.invitedBy.id,
    invitation.acceptable ? 'yes' : 'no: its inviter may no longer grant it; ask for a new one',
    invitation.expiresAt,
  ]);
  const header = ['id', 'team', 'role', 'invited by', 'acceptable', 'expires at'];
  return {
    json: invitations,
    text:
      rows.length === 0 ? 'No open invitations to your email.' : `${table(header, rows)}\n\n${ACCEPT_HINT}`,
  };
}

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
  'invitations mine': {
    usage: 'invitations mine [--limit <n>]',
    summary: 'List the open invitations to your email, newest first, with each team and who invited you.',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      return receivedOutput(await client(), flags);
    },
  },
  'invitations list': {
    usage: 'invitations list [--limit <n>]',
    summary:
      'List the open invitations of the team in effect, newest first (never their codes); in your personal team, which takes none, the invitations to you.',
    options: LIST_OPTIONS,
    async run({ flags, client }) {
      const api = await client();
      // No team chosen is the personal team: nobody is invited into it, so show what a newcomer wants.
      if (api.teamId === undefined && !isTeamToken(api.apiKey)) return receivedOutput(api, flags);
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
