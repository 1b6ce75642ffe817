import { listDeploymentEvents } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'list-deployment-events',
  { params: IdParams },
  async ({ caller, params, reply }) => reply.ok({ events: await listDeploymentEvents(caller, params.id) }),
);
