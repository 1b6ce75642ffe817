import { listProductionHistory } from '#shared/domain/production.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-production-history',
  { params: IdParams, query: PageQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listProductionHistory(caller, params.id, pageOf(query));
    return reply.ok({ moves: page.items, nextCursor: page.nextCursor });
  },
);
