import { getProject } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('get-project', { params: IdParams }, async ({ caller, params, reply }) =>
  reply.ok(await getProject(caller, params.id)),
);
