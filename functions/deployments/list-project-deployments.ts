import { listProjectDeployments } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { ProjectDeploymentsQuery } from '#shared/schemas/deployments/queries.ts';
import { pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-project-deployments',
  { params: IdParams, query: ProjectDeploymentsQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listProjectDeployments(caller, params.id, query, pageOf(query));
    return reply.ok({ deployments: page.items, nextCursor: page.nextCursor });
  },
);
