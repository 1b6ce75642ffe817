import * as z from 'zod/mini';
import { TEAM_ROLES } from '#shared/model/roles.ts';
import { NextCursor, prefixedId, Timestamp } from '#shared/schemas/resources.ts';

// Teams, members, invitations and roles as the API shows them. Like resources.ts, only the
// document imports this module at run time.

const Role = z.enum(TEAM_ROLES).register(z.globalRegistry, {
  description: '`viewer` < `developer` < `admin` < `owner`: `GET /roles` lists what each may do.',
});

const exampleTeam = {
  id: 'team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B',
  name: 'Acme',
  personal: false,
  role: 'owner',
  createdAt: '2026-11-25T09:14:10.000Z',
  updatedAt: '2026-11-25T09:14:10.000Z',
} as const;

export const Team = z
  .strictObject({
    id: z
      .string()
      .register(z.globalRegistry, { description: '`team_` and an opaque id.', examples: [exampleTeam.id] }),
    name: z.string(),
    personal: z.boolean().register(z.globalRegistry, {
      description: "The user's own team: one member, its owner; it cannot be left, deleted or invited into.",
    }),
    role: Role,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Team',
    description: "A team, with the caller's role in it.",
    examples: [exampleTeam],
  });

export const TeamList = z
  .strictObject({ teams: z.array(Team), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'TeamList',
    description: "The caller's teams: their personal team first (on the first page), then the others.",
  });

export const Member = z
  .strictObject({
    userId: z.string(),
    email: z.string(),
    name: z.nullable(z.string()),
    role: Role,
    joinedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Member',
    description: 'A member of a team, with the email and name they had when they joined.',
    examples: [
      {
        userId: 'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
        email: 'ada@example.com',
        name: 'Ada',
        role: 'owner',
        joinedAt: exampleTeam.createdAt,
      },
    ],
  });

export const MemberList = z
  .strictObject({ members: z.array(Member), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'MemberList', description: "A page of a team's members." });

const exampleInvitation = {
  id: 'inv_01JD8Z6H7J8K9M0N1P2Q3R4S5V',
  email: 'grace@example.com',
  role: 'developer',
  invitedBy: 'usr_01JD8Z4B2C3D4E5F6G7H8J9K0M',
  createdAt: '2026-11-25T09:20:00.000Z',
  expiresAt: '2026-12-02T09:20:00.000Z',
} as const;

const invitationFields = {
  id: prefixedId('inv', exampleInvitation.id),
  email: z.string(),
  role: Role,
  invitedBy: z.string().register(z.globalRegistry, {
    description:
      'The member who made it. Accepting needs them to hold the role it grants, and the right to invite, still: an invitation of a member since demoted or gone is refused, and is for an owner or admin to revoke.',
  }),
  createdAt: Timestamp,
  expiresAt: Timestamp,
};

export const Invitation = z.strictObject(invitationFields).register(z.globalRegistry, {
  id: 'Invitation',
  description: 'An invitation not accepted yet (never its code).',
  examples: [exampleInvitation],
});

export const CreatedInvitation = z
  .strictObject({
    ...invitationFields,
    code: z.string().register(z.globalRegistry, {
      description:
        'Shown this once (only its digest is stored): pass it on to the invitee, who accepts with it.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'CreatedInvitation',
    description: 'A new invitation and its one-use code, valid 7 days. Nothing is emailed.',
    examples: [{ ...exampleInvitation, code: 'inv_5tQh0m3C0d3Th4tW4sSh0wn0nc3xYz12345678' }],
  });

export const InvitationList = z
  .strictObject({ invitations: z.array(Invitation), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'InvitationList',
    description: "A team's open invitations, newest first.",
  });

const exampleReceived = {
  id: exampleInvitation.id,
  team: { id: exampleTeam.id, name: exampleTeam.name },
  role: exampleInvitation.role,
  invitedBy: { id: exampleInvitation.invitedBy, email: 'ada@example.com', name: 'Ada' },
  acceptable: true,
  createdAt: exampleInvitation.createdAt,
  expiresAt: exampleInvitation.expiresAt,
} as const;

export const ReceivedInvitation = z
  .strictObject({
    id: prefixedId('inv', exampleInvitation.id),
    team: z.strictObject({ id: z.string(), name: z.string() }),
    role: Role,
    invitedBy: z
      .strictObject({
        id: z.string(),
        email: z.optional(z.string()),
        name: z.optional(z.nullable(z.string())),
      })
      .register(z.globalRegistry, {
        description:
          'Who invited you: their email and name while they are a member of the team, else their id alone.',
      }),
    acceptable: z.boolean().register(z.globalRegistry, {
      description:
        'False when whoever invited you has left the team or no longer holds the role it grants: accepting is refused (409), so ask an owner or admin there for a new invitation.',
    }),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'ReceivedInvitation',
    description:
      'An open invitation to your email, as you see it: never its code, which its inviter passes on.',
    examples: [exampleReceived],
  });

export const ReceivedInvitationList = z
  .strictObject({ invitations: z.array(ReceivedInvitation), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'ReceivedInvitationList',
    description: 'The open invitations to your email, newest first.',
  });

export const AcceptedInvitation = z.strictObject({ team: Team, role: Role }).register(z.globalRegistry, {
  id: 'AcceptedInvitation',
  description: 'The team joined, and the role held there.',
});

export const RoleList = z
  .strictObject({
    roles: z.array(
      z.strictObject({
        name: Role,
        permissions: z.array(z.string()).register(z.globalRegistry, {
          description: 'Everything the role may do, its own and the roles below it, as `resource.verb`.',
        }),
      }),
    ),
  })
  .register(z.globalRegistry, {
    id: 'RoleList',
    description: 'The roles, lowest first, with what each may do: the same table the checks read.',
  });
