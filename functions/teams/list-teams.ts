import { listTeams } from '#shared/domain/teams/teams.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint('list-teams', { query: PageQuery }, async ({ caller, query, reply }) => {
  const page = await listTeams(caller, pageOf(query));
  return reply.ok({ teams: page.items, nextCursor: page.nextCursor });
});
