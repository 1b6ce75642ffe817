import { removeMember } from '#shared/domain/teams/members.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { MemberParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'remove-team-member',
  { params: MemberParams },
  async ({ caller, params, reply }) => {
    await removeMember(caller, params.userId);
    return reply.noContent();
  },
);
