import { createWebhook } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { CreateWebhookBody } from '#shared/schemas/webhooks/webhooks.ts';

export const handler = keyEndpoint(
  'create-webhook',
  { body: CreateWebhookBody },
  async ({ caller, body, request, reply }) => {
    const created = await createWebhook(caller, body);
    return reply.createdWithId(
      { secret: created.secret, webhook: created.webhook },
      request.path,
      created.webhook.id,
    );
  },
);
