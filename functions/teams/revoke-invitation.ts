import { revokeInvitation } from '#shared/domain/teams/invitations.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { InvitationParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'revoke-invitation',
  { params: InvitationParams },
  async ({ caller, params, reply }) => {
    await revokeInvitation(caller, params.id);
    return reply.noContent();
  },
);
