import { appendDeploymentLogs } from '#shared/domain/deployments/logs.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { AppendLogsBody } from '#shared/schemas/deployments/logs.ts';

export const handler = keyEndpoint(
  'append-deployment-logs',
  { params: IdParams, body: AppendLogsBody },
  async ({ caller, params, body, reply }) =>
    reply.json(201, await appendDeploymentLogs(caller, params.id, body)),
);
