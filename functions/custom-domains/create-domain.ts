import { addDomain } from '#shared/domain/custom-domains/claims.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { CreateDomainBody } from '#shared/schemas/domains.ts';

export const handler = keyEndpoint(
  'create-domain',
  { params: IdParams, body: CreateDomainBody },
  async ({ caller, params, body, request, reply }) => {
    const domain = await addDomain(caller, params.id, body);
    return reply.createdWithId(domain, request.path, domain.name);
  },
);
