import { readBuildEnvironment } from '#shared/domain/environment/variables.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('get-build-env', { params: IdParams }, async ({ caller, params, reply }) =>
  reply.ok(await readBuildEnvironment(caller, params.id)),
);
