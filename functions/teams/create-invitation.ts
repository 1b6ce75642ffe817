import { createInvitation } from '#shared/domain/teams/invitations.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';
import { CreateInvitationBody } from '#shared/schemas/teams/teams.ts';

export const handler = keyEndpoint(
  'create-invitation',
  { params: TeamParams, body: CreateInvitationBody },
  async ({ caller, body, request, reply }) =>
    reply.created(await createInvitation(caller, body), request.path),
);
