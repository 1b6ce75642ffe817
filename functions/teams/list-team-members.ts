import { listMembers } from '#shared/domain/teams/members.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'list-team-members',
  { params: TeamParams, query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listMembers(caller, pageOf(query));
    return reply.ok({ members: page.items, nextCursor: page.nextCursor });
  },
);
