import { batchGet } from '#shared/db/batch-get.ts';
import { type Page, queryPage } from '#shared/db/pages.ts';
import { isTeamRole, type TeamRole } from '#shared/model/roles.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import {
  type Member,
  memberKey,
  type StoredTeam,
  TEAM_SORT_KEY,
  table,
  teamKey,
  toMember,
  toTeam,
} from './teams.ts';

// The invitations sent to an email, for the invitee to find: `inbox#<email>` holds one item per open
// invitation, sorted by its id (newest last), and never its code. It is written, and deleted, in the
// same transactions as the invitation itself (invitations.ts), and expires by TTL with it. Its sort
// key is the bare invitation id, not `invitation#…`: the audit log records the invitation once, from
// the team's item, not a second time from this copy.

export interface InboxEntry {
  id: string;
  teamId: string;
  role: TeamRole;
  invitedBy: string;
  createdAt: string;
  /** ISO time. */
  expiresAt: string;
}

export const inboxKey = (email: string, invitationId: string) => ({
  pk: `inbox#${email}`,
  sk: invitationId,
});

/** The inbox item of an invitation to `email`; `expiresAt` in epoch seconds (the table's TTL). */
export const inboxItem = (email: string, entry: InboxEntry, expiresAt: number): Record<string, unknown> => ({
  ...inboxKey(email, entry.id),
  teamId: entry.teamId,
  role: entry.role,
  invitedBy: entry.invitedBy,
  createdAt: entry.createdAt,
  expiresOn: entry.expiresAt,
  expiresAt,
});

const toEntry = (item: Record<string, unknown>): InboxEntry => ({
  id: String(item.sk),
  teamId: String(item.teamId),
  role: isTeamRole(item.role) ? item.role : 'viewer',
  invitedBy: String(item.invitedBy),
  createdAt: String(item.createdAt),
  expiresAt: String(item.expiresOn),
});

/** The open invitations to `email`, newest first. */
export async function listInbox(
  email: string,
  page: PageRequest,
  nowSeconds: number,
): Promise<Page<InboxEntry>> {
  const result = await queryPage(
    {
      scope: `inbox:${email}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'pk = :inbox',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeValues: { ':inbox': inboxKey(email, '').pk, ':now': nowSeconds },
        ConsistentRead: true,
      },
      resume: { keyOf: (id) => inboxKey(email, id), idAttribute: 'sk' },
    },
    page,
  );
  return { items: result.items.map(toEntry), nextCursor: result.nextCursor };
}

/** Where an entry came from: its team (absent once deleted) and its inviter (absent once they left). */
export interface Senders {
  teams: Map<string, StoredTeam>;
  /** By `<teamId> <userId>`. */
  inviters: Map<string, Member>;
}

export const inviterOf = (senders: Senders, entry: InboxEntry): Member | undefined =>
  senders.inviters.get(`${entry.teamId} ${entry.invitedBy}`);

/** The teams of `entries` and their inviters' memberships, in one BatchGetItem per 100 keys. */
export async function findSenders(entries: readonly InboxEntry[]): Promise<Senders> {
  const keys = new Map<string, { pk: string; sk: string }>();
  for (const entry of entries) {
    for (const key of [teamKey(entry.teamId), memberKey(entry.teamId, entry.invitedBy)]) {
      // BatchGetItem refuses a request that names one key twice.
      keys.set(`${key.pk} ${key.sk}`, key);
    }
  }
  const senders: Senders = { teams: new Map(), inviters: new Map() };
  for (const item of await batchGet(table(), [...keys.values()], { consistent: true })) {
    if (item.sk === TEAM_SORT_KEY) senders.teams.set(String(item.pk), toTeam(item));
    else senders.inviters.set(`${String(item.pk)} ${String(item.memberId)}`, toMember(item));
  }
  return senders;
}
