import { listWebhooks } from '#shared/domain/webhooks.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-webhooks',
  { query: PageQuery },
  async ({ caller, query, reply }) => {
    const page = await listWebhooks(caller, pageOf(query));
    return reply.ok({ webhooks: page.items, nextCursor: page.nextCursor });
  },
);
