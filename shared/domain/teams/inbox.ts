import type { Page } from '#shared/db/pages.ts';
import { findSenders, type InboxEntry, inviterOf, listInbox } from '#shared/db/teams/inbox.ts';
import { findUser } from '#shared/db/users.ts';
import type { Caller } from '#shared/model/caller.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { inviterRolesFor } from './invitations.ts';

// The invitations sent to the caller's email, as the invitee sees them: which team, what role, who
// invited them, and whether accepting would work today. Never a code: accepting still needs the one
// the inviter passed on, so a listing alone joins nobody.

export interface ReceivedInvitation {
  id: string;
  team: { id: string; name: string };
  role: TeamRole;
  /** The inviter's email and name while they are a member of the team. */
  invitedBy: { id: string; email?: string; name?: string | null };
  /** False when the inviter has since left, or no longer holds the role it grants: accepting is 409. */
  acceptable: boolean;
  createdAt: string;
  expiresAt: string;
}

export async function listReceivedInvitations(
  caller: Caller,
  page: PageRequest,
): Promise<Page<ReceivedInvitation>> {
  const user = await findUser(caller.userId);
  if (!user) return { items: [], nextCursor: null };
  const inbox = await listInbox(user.email, page, nowSeconds());
  const senders = await findSenders(inbox.items);
  const items: ReceivedInvitation[] = [];
  for (const entry of inbox.items) {
    const team = senders.teams.get(entry.teamId);
    // A deleted team's invitations are gone with it; its inbox entries only wait for their TTL.
    if (team) items.push(received(entry, team, inviterOf(senders, entry)));
  }
  return { items, nextCursor: inbox.nextCursor };
}

function received(
  entry: InboxEntry,
  team: { id: string; name: string },
  inviter: ReturnType<typeof inviterOf>,
): ReceivedInvitation {
  return {
    id: entry.id,
    team: { id: team.id, name: team.name },
    role: entry.role,
    invitedBy: inviter
      ? { id: entry.invitedBy, email: inviter.email, name: inviter.name }
      : { id: entry.invitedBy },
    acceptable: inviter !== undefined && inviterRolesFor(entry.role).includes(inviter.role),
    createdAt: entry.createdAt,
    expiresAt: entry.expiresAt,
  };
}
