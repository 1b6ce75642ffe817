import { deleteTeam } from '#shared/domain/teams/teams.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint('delete-team', { params: TeamParams }, async ({ caller, reply }) => {
  await deleteTeam(caller);
  return reply.noContent();
});
