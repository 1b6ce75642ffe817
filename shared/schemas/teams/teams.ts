import * as z from 'zod/mini';
import { TEAM_ROLES } from '#shared/model/roles.ts';
import { Email } from '#shared/schemas/auth.ts';
import { atMost } from '#shared/schemas/common.ts';
import { nameOf } from '#shared/schemas/names.ts';

// What clients send about teams, their members and invitations.

const TeamName = nameOf(64, ' Not unique.');

const Role = z.enum(TEAM_ROLES);

export const CreateTeamBody = z.strictObject({ name: TeamName }).register(z.globalRegistry, {
  id: 'CreateTeamBody',
  description: 'Unknown fields are refused (400 naming the field).',
  examples: [{ name: 'Acme' }],
});

export const UpdateTeamBody = z.strictObject({ name: TeamName }).register(z.globalRegistry, {
  id: 'UpdateTeamBody',
  description: "The team's new name.",
  examples: [{ name: 'Acme Inc.' }],
});

export const UpdateMemberBody = z.strictObject({ role: Role }).register(z.globalRegistry, {
  id: 'UpdateMemberBody',
  description:
    "The member's new role: an admin gives roles up to admin; only an owner makes or unmakes owners.",
  examples: [{ role: 'developer' }],
});

export const CreateInvitationBody = z.strictObject({ email: Email, role: Role }).register(z.globalRegistry, {
  id: 'CreateInvitationBody',
  description: "Who may join, and as what: at most the inviter's own role.",
  examples: [{ email: 'grace@example.com', role: 'developer' }],
});

export const AcceptInvitationBody = z
  .strictObject({ code: z.string().check(z.minLength(1, 'must not be empty'), atMost(128)) })
  .register(z.globalRegistry, {
    id: 'AcceptInvitationBody',
    description: 'The code the inviter passed on.',
    examples: [{ code: 'inv_5tQh0m3C0d3Th4tW4sSh0wn0nc3xYz12345678' }],
  });

export type CreateTeamInput = z.output<typeof CreateTeamBody>;
export type CreateInvitationInput = z.output<typeof CreateInvitationBody>;
