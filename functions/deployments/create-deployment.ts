import { createDeployment } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { CreateDeploymentBody } from '#shared/schemas/deployments/deployments.ts';

export const handler = keyEndpoint(
  'create-deployment',
  { body: CreateDeploymentBody },
  async ({ caller, body, request, reply }) =>
    reply.created(await createDeployment(caller, body), request.path),
);
