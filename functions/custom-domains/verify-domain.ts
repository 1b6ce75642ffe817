import { verifyDomain } from '#shared/domain/custom-domains/domains.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { DomainParams } from '#shared/schemas/domains.ts';

export const handler = keyEndpoint(
  'verify-domain',
  { params: DomainParams },
  async ({ caller, params, reply }) => reply.ok(await verifyDomain(caller, params.id, params.name)),
);
