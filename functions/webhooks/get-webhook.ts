import { getWebhook } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('get-webhook', { params: IdParams }, async ({ caller, params, reply }) =>
  reply.ok(await getWebhook(caller, params.id)),
);
