import { listEnvironment } from '#shared/domain/environment/variables.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { PageQuery, pageOf } from '#shared/schemas/page-query.ts';

export const handler = keyEndpoint(
  'list-environment',
  { params: IdParams, query: PageQuery },
  async ({ caller, params, query, reply }) => {
    const page = await listEnvironment(caller, params.id, pageOf(query));
    return reply.ok({ variables: page.items, nextCursor: page.nextCursor });
  },
);
