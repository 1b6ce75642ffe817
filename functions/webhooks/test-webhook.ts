import { pingWebhook } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('test-webhook', { params: IdParams }, async ({ caller, params, reply }) =>
  reply.json(202, await pingWebhook(caller, params.id)),
);
