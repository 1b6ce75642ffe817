import { updateWebhook } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { UpdateWebhookBody } from '#shared/schemas/webhooks/webhooks.ts';

export const handler = keyEndpoint(
  'update-webhook',
  { params: IdParams, body: UpdateWebhookBody },
  async ({ caller, params, body, reply }) => reply.ok(await updateWebhook(caller, params.id, body)),
);
