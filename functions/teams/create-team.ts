import { createTeam } from '#shared/domain/teams/teams.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { CreateTeamBody } from '#shared/schemas/teams/teams.ts';

export const handler = keyEndpoint(
  'create-team',
  { body: CreateTeamBody },
  async ({ caller, body, request, reply }) => reply.created(await createTeam(caller, body), request.path),
);
