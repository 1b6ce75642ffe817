import { listDeployments } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { DeploymentsQuery } from '#shared/schemas/deployments/queries.ts';
import { pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-deployments',
  { query: DeploymentsQuery },
  async ({ caller, query, reply }) => {
    const page = await listDeployments(caller, query, pageOf(query));
    return reply.ok({ deployments: page.items, nextCursor: page.nextCursor });
  },
);
