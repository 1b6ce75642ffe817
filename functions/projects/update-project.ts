import { updateProject } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { UpdateProjectBody } from '#shared/schemas/projects.ts';

export const handler = keyEndpoint(
  'update-project',
  { params: IdParams, body: UpdateProjectBody },
  async ({ caller, params, body, reply }) => reply.ok(await updateProject(caller, params.id, body)),
);
