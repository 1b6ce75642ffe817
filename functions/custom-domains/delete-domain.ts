import { removeDomain } from '#shared/domain/custom-domains/domains.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { DomainParams } from '#shared/schemas/domains.ts';

export const handler = keyEndpoint(
  'delete-domain',
  { params: DomainParams },
  async ({ caller, params, reply }) => {
    await removeDomain(caller, params.id, params.name);
    return reply.noContent();
  },
);
