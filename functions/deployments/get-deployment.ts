import { getDeployment } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'get-deployment',
  { params: IdParams },
  async ({ caller, params, reply }) => reply.ok(await getDeployment(caller, params.id)),
);
