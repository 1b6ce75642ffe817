import { deleteWebhook } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint(
  'delete-webhook',
  { params: IdParams },
  async ({ caller, params, reply }) => {
    await deleteWebhook(caller, params.id);
    return reply.noContent();
  },
);
