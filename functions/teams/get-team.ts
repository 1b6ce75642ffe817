import { getTeam } from '#shared/domain/teams/teams.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

// The chain has entered the team the path names (shared/http/admission/team-scope.ts).
export const handler = keyEndpoint('get-team', { params: TeamParams }, async ({ caller, reply }) =>
  reply.ok(await getTeam(caller)),
);
