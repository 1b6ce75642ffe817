import { createProject } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { CreateProjectBody } from '#shared/schemas/projects.ts';

export const handler = keyEndpoint(
  'create-project',
  { body: CreateProjectBody },
  async ({ caller, body, request, reply }) => reply.created(await createProject(caller, body), request.path),
);
