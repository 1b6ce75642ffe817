import { waitForDeployment } from '#shared/domain/deployments/wait.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { DEFAULT_WAIT_SECONDS, WaitQuery } from '#shared/schemas/deployments/queries.ts';

export const handler = keyEndpoint(
  'wait-for-deployment',
  { params: IdParams, query: WaitQuery },
  async ({ caller, params, query, reply }) => {
    const { deployment, reached } = await waitForDeployment(caller, params.id, {
      ...(query.status === undefined ? {} : { statuses: query.status }),
      timeoutSeconds: query.timeout ?? DEFAULT_WAIT_SECONDS,
    });
    return reply.okWith(deployment, { 'Wait-Result': reached ? 'reached' : 'timeout' });
  },
);
