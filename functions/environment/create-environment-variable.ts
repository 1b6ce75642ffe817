import { createVariable } from '#shared/domain/environment/writes.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { CreateVariableBody } from '#shared/schemas/environment/environment.ts';

export const handler = keyEndpoint(
  'create-environment-variable',
  { params: IdParams, body: CreateVariableBody },
  async ({ caller, params, body, reply }) => reply.json(201, await createVariable(caller, params.id, body)),
);
