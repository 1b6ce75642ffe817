import { revokeTeamToken } from '#shared/domain/teams/tokens.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { TokenParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'revoke-team-token',
  { params: TokenParams },
  async ({ caller, params, reply }) => {
    await revokeTeamToken(caller, params.id);
    return reply.noContent();
  },
);
