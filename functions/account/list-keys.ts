import { listKeys } from '#shared/domain/api-keys.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint('list-keys', { query: PageQuery }, async ({ caller, query, reply }) => {
  const page = await listKeys(caller, pageOf(query));
  return reply.ok({ keys: page.items, nextCursor: page.nextCursor });
});
