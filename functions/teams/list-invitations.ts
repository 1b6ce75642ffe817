import { listInvitations } from '#shared/domain/teams/invitations.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'list-invitations',
  { params: TeamParams, query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listInvitations(caller, pageOf(query));
    return reply.ok({ invitations: page.items, nextCursor: page.nextCursor });
  },
);
