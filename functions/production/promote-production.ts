import { promote } from '#shared/domain/production.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PromoteBody } from '#shared/schemas/production.ts';

export const handler = keyEndpoint(
  'promote-production',
  { params: IdParams, body: PromoteBody },
  async ({ caller, params, body, reply }) => reply.ok(await promote(caller, params.id, body)),
);
