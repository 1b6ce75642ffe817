import { getDomain } from '#shared/domain/custom-domains/domains.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { DomainParams } from '#shared/schemas/domains.ts';

export const handler = keyEndpoint(
  'get-domain',
  { params: DomainParams },
  async ({ caller, params, reply }) => reply.ok(await getDomain(caller, params.id, params.name)),
);
