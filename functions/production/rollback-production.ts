import { rollback } from '#shared/domain/production.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { RollbackBody } from '#shared/schemas/production.ts';

export const handler = keyEndpoint(
  'rollback-production',
  { params: IdParams, body: RollbackBody },
  async ({ caller, params, body, reply }) => reply.ok(await rollback(caller, params.id, body)),
);
