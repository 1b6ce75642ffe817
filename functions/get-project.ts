import { getProject } from '#shared/domain/projects.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/replies.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('get-project', { params: IdParams }, async ({ caller, params }) =>
  ok(await getProject(caller, params.id)),
);
