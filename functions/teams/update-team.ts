import { renameTeam } from '#shared/domain/teams/teams.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';
import { UpdateTeamBody } from '#shared/schemas/teams/teams.ts';

export const handler = keyEndpoint(
  'update-team',
  { params: TeamParams, body: UpdateTeamBody },
  async ({ caller, body, reply }) => reply.ok(await renameTeam(caller, body.name)),
);
