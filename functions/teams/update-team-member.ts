import { changeRole } from '#shared/domain/teams/members.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { MemberParams } from '#shared/schemas/teams/params.ts';
import { UpdateMemberBody } from '#shared/schemas/teams/teams.ts';

export const handler = keyEndpoint(
  'update-team-member',
  { params: MemberParams, body: UpdateMemberBody },
  async ({ caller, params, body, reply }) => reply.ok(await changeRole(caller, params.userId, body.role)),
);
