import { cancelDeployment } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'cancel-deployment',
  { params: IdParams },
  async ({ caller, params, reply }) => reply.ok(await cancelDeployment(caller, params.id)),
);
