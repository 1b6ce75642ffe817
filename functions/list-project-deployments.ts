import { listProjectDeployments } from '#shared/domain/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams, PageQuery, pageOf } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'list-project-deployments',
  { params: IdParams, query: PageQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listProjectDeployments(caller, params.id, pageOf(query));
    return reply.ok({ deployments: page.items, nextCursor: page.nextCursor });
  },
);
