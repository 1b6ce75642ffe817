import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { transactWriteReasons } from '#shared/db/conditional.ts';
import { type Page, queryPage } from '#shared/db/pages.ts';
import { isTeamRole, type TeamRole } from '#shared/model/roles.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { inboxItem, inboxKey } from './inbox.ts';
import { type Member, memberItem, memberKey, standsOpen, table, teamKey } from './teams.ts';

// Invitations: an item in the team's partition that lists it (never its code), an item keyed by the
// digest of its code that finds it when someone accepts, and one in the invitee's inbox (inbox.ts).
// All expire by TTL after 7 days; code checks the time itself, as TTL deletes late. Accepting is one
// transaction: the invitation, its code and its inbox entry go, the member comes, so a code is used
// once even by two accepts at the same moment.

export interface Invitation {
  id: string;
  email: string;
  role: TeamRole;
  /** The member who made it. */
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const invitationKey = (teamId: string, id: string) => ({ pk: teamId, sk: `invitation#${id}` });
const codeKey = (digest: string) => ({ pk: `code#${digest}`, sk: 'code' });

const epochSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

const toInvitation = (item: Record<string, unknown>): Invitation => ({
  id: String(item.id),
  email: String(item.email),
  role: isTeamRole(item.role) ? item.role : 'viewer',
  invitedBy: String(item.invitedBy),
  createdAt: String(item.createdAt),
  expiresAt: String(item.expiresOn),
});

export async function insertInvitation(
  teamId: string,
  invitation: Invitation,
  codeDigest: string,
): Promise<void> {
  const expiresAt = epochSeconds(invitation.expiresAt);
  const outcome = await transactWriteReasons(() => ({
    TransactItems: [
      {
        Put: {
          TableName: table(),
          Item: {
            ...invitationKey(teamId, invitation.id),
            ...invitation,
            expiresOn: invitation.expiresAt,
            expiresAt,
            codeDigest,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: {
            ...codeKey(codeDigest),
            teamId,
            invitationId: invitation.id,
            email: invitation.email,
            role: invitation.role,
            invitedBy: invitation.invitedBy,
            expiresAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: inboxItem(invitation.email, { ...invitation, teamId }, expiresAt),
        },
      },
    ],
  }));
  if (!outcome.done) throw outcome.error;
}

/** A team's invitations still open, newest first. */
export async function listInvitations(
  teamId: string,
  page: PageRequest,
  nowSeconds: number,
): Promise<Page<Invitation>> {
  const result = await queryPage(
    {
      scope: `invitations:${teamId}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'pk = :teamId AND begins_with(sk, :invitation)',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeValues: { ':teamId': teamId, ':invitation': 'invitation#', ':now': nowSeconds },
        ConsistentRead: true,
      },
      resume: { keyOf: (id) => invitationKey(teamId, id) },
    },
    page,
  );
  return { items: result.items.map(toInvitation), nextCursor: result.nextCursor };
}

/**
 * Revokes an invitation: its code is useless from then on (accepting needs the invitation item), and
 * it leaves the invitee's inbox. Read first for its email, the inbox's key; false when it is gone.
 */
export async function deleteInvitation(teamId: string, id: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: invitationKey(teamId, id), ConsistentRead: true }),
  );
  if (!Item) return false;
  const outcome = await transactWriteReasons(() => ({
    TransactItems: [
      {
        Delete: {
          TableName: table(),
          Key: invitationKey(teamId, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Delete: { TableName: table(), Key: inboxKey(String(Item.email), id) } },
    ],
  }));
  return outcome.done;
}

export interface OpenInvitation {
  teamId: string;
  invitationId: string;
  email: string;
  role: TeamRole;
  /** The member who made it; undefined on a code stored before it was kept there (then on the invitation). */
  invitedBy: string | undefined;
  /** Epoch seconds. */
  expiresAt: number;
}

export async function findByCode(digest: string): Promise<OpenInvitation | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: codeKey(digest), ConsistentRead: true }),
  );
  if (!Item || !isTeamRole(Item.role)) return undefined;
  return {
    teamId: String(Item.teamId),
    invitationId: String(Item.invitationId),
    email: String(Item.email),
    role: Item.role,
    invitedBy: typeof Item.invitedBy === 'string' ? Item.invitedBy : undefined,
    expiresAt: Number(Item.expiresAt),
  };
}

/** Who made an invitation, from its item; undefined once it is gone. */
export async function findInviter(teamId: string, invitationId: string): Promise<string | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: invitationKey(teamId, invitationId), ConsistentRead: true }),
  );
  return typeof Item?.invitedBy === 'string' ? Item.invitedBy : undefined;
}

/**
 * `accepted`; `gone` (used, revoked or its team deleted meanwhile); `member` (already in the team);
 * `inviter` (who made it no longer holds one of `inviterRoles` in the team, or has left it);
 * `closing` (the team is being deleted: a member who joined after its deletion read its members
 * would be left in a team that is gone).
 */
export type Acceptance = 'accepted' | 'gone' | 'member' | 'inviter' | 'closing';

/**
 * Joins the team in one transaction, if the invitation's maker, `inviter`, still holds one of
 * `inviterRoles` there: their role is checked in the same transaction, so a demotion or a removal
 * that lands first is never outrun.
 */
export async function acceptInvitation(
  digest: string,
  open: OpenInvitation,
  member: Member,
  inviter: { userId: string; roles: readonly TeamRole[] },
  nowMs: number,
): Promise<Acceptance> {
  const roleValues = Object.fromEntries(inviter.roles.map((role, index) => [`:role${index}`, role]));
  const outcome = await transactWriteReasons(() => ({
    TransactItems: [
      { Delete: { TableName: table(), Key: codeKey(digest), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Delete: {
          TableName: table(),
          Key: invitationKey(open.teamId, open.invitationId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: memberItem(open.teamId, member),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      // The team must still be there; an owner's arrival is counted.
      {
        Update: {
          TableName: table(),
          Key: teamKey(open.teamId),
          UpdateExpression: 'ADD owners :delta',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':delta': member.role === 'owner' ? 1 : 0 },
        },
      },
      {
        ConditionCheck: {
          TableName: table(),
          Key: memberKey(open.teamId, inviter.userId),
          ConditionExpression: `#role IN (${Object.keys(roleValues).join(', ')})`,
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: roleValues,
        },
      },
      standsOpen(open.teamId, nowMs),
      // Last, so that the reasons above keep their places; absent for an invitation made before inboxes.
      { Delete: { TableName: table(), Key: inboxKey(open.email, open.invitationId) } },
    ],
  }));
  if (outcome.done) return 'accepted';
  const [code, invitation, newMember, team, inviterRole, closed] = outcome.reasons.map(
    (reason) => reason === 'ConditionalCheckFailed',
  );
  if (code || invitation || team) return 'gone';
  if (newMember) return 'member';
  if (inviterRole) return 'inviter';
  if (closed) return 'closing';
  throw outcome.error;
}
