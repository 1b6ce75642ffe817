import { listDomains } from '#shared/domain/custom-domains/domains.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-domains',
  { params: IdParams, query: PageQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listDomains(caller, params.id, pageOf(query));
    return reply.ok({ domains: page.items, nextCursor: page.nextCursor });
  },
);
