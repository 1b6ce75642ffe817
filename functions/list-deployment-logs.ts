import { listDeploymentLogs } from '#shared/domain/deployment-logs.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams, pageOf } from '#shared/schemas/common.ts';
import { LogQuery } from '#shared/schemas/deployment-logs.ts';

export const handler = keyEndpoint(
  'list-deployment-logs',
  { params: IdParams, query: LogQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listDeploymentLogs(caller, params.id, {
      ...pageOf(query),
      ...(query.since === undefined ? {} : { since: query.since }),
    });
    return reply.ok({ lines: page.items, nextCursor: page.nextCursor });
  },
);
