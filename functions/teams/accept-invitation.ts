import { acceptInvitation } from '#shared/domain/teams/invitations.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { AcceptInvitationBody } from '#shared/schemas/teams/teams.ts';

export const handler = keyEndpoint(
  'accept-invitation',
  { body: AcceptInvitationBody },
  async ({ caller, body, reply }) => reply.ok(await acceptInvitation(caller, body.code)),
);
