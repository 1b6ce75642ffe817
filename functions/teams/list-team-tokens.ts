import { listTeamTokens } from '#shared/domain/teams/tokens.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'list-team-tokens',
  { params: TeamParams, query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listTeamTokens(caller, pageOf(query));
    return reply.ok({ tokens: page.items, nextCursor: page.nextCursor });
  },
);
