import { deleteVariable } from '#shared/domain/environment/writes.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { VariableParams } from '#shared/schemas/environment/variable-params.ts';

export const handler = keyEndpoint(
  'delete-environment-variable',
  { params: VariableParams },
  async ({ caller, params, reply }) => {
    await deleteVariable(caller, params.id, params.envId);
    return reply.noContent();
  },
);
