import { deleteProject } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'delete-project',
  { params: IdParams },
  async ({ caller, params, reply }) => {
    await deleteProject(caller, params.id);
    return reply.noContent();
  },
);
