import { listReceivedInvitations } from '#shared/domain/teams/inbox.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-received-invitations',
  { query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listReceivedInvitations(caller, pageOf(query));
    return reply.ok({ invitations: page.items, nextCursor: page.nextCursor });
  },
);
