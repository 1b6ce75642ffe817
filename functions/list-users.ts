import { listUsers } from '#shared/domain/users.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { page } from '#shared/http/replies.ts';
import { PageQuery, pageOf } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('list-users', { query: PageQuery }, async ({ caller, query }) =>
  page('users', await listUsers(caller, pageOf(query))),
);
