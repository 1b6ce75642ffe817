import { reportDeploymentEvent } from '#shared/domain/deployments/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { ReportDeploymentEventBody } from '#shared/schemas/deployments/deployments.ts';

export const handler = keyEndpoint(
  'report-deployment-event',
  { params: IdParams, body: ReportDeploymentEventBody },
  async ({ caller, params, body, reply }) => reply.ok(await reportDeploymentEvent(caller, params.id, body)),
);
