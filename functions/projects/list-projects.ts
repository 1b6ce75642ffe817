import { listProjects } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-projects',
  { query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listProjects(caller, pageOf(query));
    return reply.ok({ projects: page.items, nextCursor: page.nextCursor });
  },
);
