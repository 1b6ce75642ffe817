import { listUsers } from '#shared/domain/users.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint('list-users', { query: PageQuery }, async ({ caller, query, reply }) => {
  const page = await listUsers(caller, pageOf(query));
  return reply.ok({ users: page.items, nextCursor: page.nextCursor });
});
