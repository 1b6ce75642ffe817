import { updateVariable } from '#shared/domain/environment/writes.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { UpdateVariableBody } from '#shared/schemas/environment/update.ts';
import { VariableParams } from '#shared/schemas/environment/variable-params.ts';

export const handler = keyEndpoint(
  'update-environment-variable',
  { params: VariableParams, body: UpdateVariableBody },
  async ({ caller, params, body, reply }) =>
    reply.ok(await updateVariable(caller, params.id, params.envId, body)),
);
