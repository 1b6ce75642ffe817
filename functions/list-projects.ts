import { listProjects } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { page } from '#shared/http/replies.ts';
import { PageQuery, pageOf } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('list-projects', { query: PageQuery }, async ({ caller, query }) =>
  page('projects', await listProjects(caller, pageOf(query))),
);
