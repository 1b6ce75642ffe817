import { revokeKey } from '#shared/domain/api-keys.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('revoke-key', { params: IdParams }, async ({ caller, params, reply }) => {
  await revokeKey(caller, params.id);
  return reply.noContent();
});
