import { removeMember } from '#shared/domain/team-members.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { MemberParams } from '#shared/schemas/team-params.ts';

export const handler = keyEndpoint(
  'remove-team-member',
  { params: MemberParams },
  async ({ caller, params, reply }) => {
    await removeMember(caller, params.userId);
    return reply.noContent();
  },
);
