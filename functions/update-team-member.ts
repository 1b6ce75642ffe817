import { changeRole } from '#shared/domain/team-members.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { MemberParams } from '#shared/schemas/team-params.ts';
import { UpdateMemberBody } from '#shared/schemas/teams.ts';

export const handler = keyEndpoint(
  'update-team-member',
  { params: MemberParams, body: UpdateMemberBody },
  async ({ caller, params, body, reply }) => reply.ok(await changeRole(caller, params.userId, body.role)),
);
