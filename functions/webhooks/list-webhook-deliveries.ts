import { listWebhookDeliveries } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-webhook-deliveries',
  { params: IdParams, query: PageQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listWebhookDeliveries(caller, params.id, pageOf(query));
    return reply.ok({ deliveries: page.items, nextCursor: page.nextCursor });
  },
);
