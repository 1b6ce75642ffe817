import { createTeamToken } from '#shared/domain/team-tokens.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/team-params.ts';
import { CreateTeamTokenBody } from '#shared/schemas/team-tokens.ts';

export const handler = keyEndpoint(
  'create-team-token',
  { params: TeamParams, body: CreateTeamTokenBody },
  async ({ caller, body, request, reply }) => {
    const created = await createTeamToken(caller, body);
    return reply.createdWithId(created, request.path, created.token.id);
  },
);
