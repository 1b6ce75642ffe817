import { createTeamToken } from '#shared/domain/teams/tokens.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';
import { CreateTeamTokenBody } from '#shared/schemas/teams/tokens.ts';

export const handler = keyEndpoint(
  'create-team-token',
  { params: TeamParams, body: CreateTeamTokenBody },
  async ({ caller, body, request, reply }) => {
    const created = await createTeamToken(caller, body);
    return reply.createdWithId(created, request.path, created.token.id);
  },
);
