import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemRead } from '#shared/db/batch-get.ts';
import { batchGet } from '#shared/db/batch-get.ts';
import { db } from '#shared/db/client.ts';
import { conditionally, transactWrite } from '#shared/db/conditional.ts';
import { forEachPage } from '#shared/db/pages.ts';
import { indexes, tableName } from '#shared/db/tables.ts';
import { isTeamRole, type TeamRole } from '#shared/model/roles.ts';

// Teams and their members (the table's declaration in tables.ts says what each item is). A member's
// role is read consistently on every request that acts in a shared team, so a role change or a
// removal holds from the member's next request.

export const table = (): string => tableName('teams');

export const TEAM_SORT_KEY = 'team';
export const teamKey = (teamId: string) => ({ pk: teamId, sk: TEAM_SORT_KEY });
export const memberKey = (teamId: string, userId: string) => ({ pk: teamId, sk: `member#${userId}` });

/**
 * A team being deleted is closed to new projects, webhooks and tokens: an item beside the team's says
 * until when (epoch ms). Each of those is written in one transaction with `standsOpen`, so one made
 * after the close is refused, and one made before it is found by the deletion's consistent reads
 * (shared/domain/teams/teams.ts). The item outlives the team: TTL removes it an hour on.
 */
const closingKey = (teamId: string) => ({ pk: teamId, sk: 'closing' });

export const isClosingKey = (key: { sk: string }): boolean => key.sk === 'closing';

/** Closes the team to new things until `untilMs`. */
export async function closeTeam(teamId: string, untilMs: number): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: table(),
      Item: { ...closingKey(teamId), until: untilMs, expiresAt: Math.ceil(untilMs / 1000) + 3_600 },
    }),
  );
}

/** Opens the team again after a deletion that did not go ahead: only the close made until `untilMs`. */
export async function reopenTeam(teamId: string, untilMs: number): Promise<void> {
  await conditionally(() =>
    db.send(
      new DeleteCommand({
        TableName: table(),
        Key: closingKey(teamId),
        ConditionExpression: '#until = :until',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':until': untilMs },
      }),
    ),
  );
}

/** A transaction's check that the team is not closed at `nowMs`: beside the put of a new thing of the team. */
export const standsOpen = (teamId: string, nowMs: number) => ({
  ConditionCheck: {
    TableName: table(),
    Key: closingKey(teamId),
    ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: { ':now': nowMs },
  },
});

export type TeamOpenCheck = ReturnType<typeof standsOpen>;

export interface StoredTeam {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: TeamRole;
  joinedAt: string;
}

export const toTeam = (item: Record<string, unknown>): StoredTeam => ({
  id: String(item.pk),
  name: String(item.name),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const roleOf = (item: Record<string, unknown> | undefined): TeamRole | undefined =>
  isTeamRole(item?.role) ? item.role : undefined;

export const toMember = (item: Record<string, unknown>): Member => ({
  userId: String(item.memberId),
  email: String(item.email),
  name: typeof item.name === 'string' ? item.name : null,
  role: roleOf(item) ?? 'viewer',
  joinedAt: String(item.joinedAt),
});

/** A member item as stored: `memberId` and `teamId` put it in the `byMember` index. */
export const memberItem = (teamId: string, member: Member): Record<string, unknown> => ({
  ...memberKey(teamId, member.userId),
  memberId: member.userId,
  teamId,
  id: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  joinedAt: member.joinedAt,
});

/** The caller's role in a team, read consistently; undefined when they are not a member. */
export async function findRole(teamId: string, userId: string): Promise<TeamRole | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: memberKey(teamId, userId), ConsistentRead: true }),
  );
  return roleOf(Item);
}

export async function findMember(teamId: string, userId: string): Promise<Member | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: memberKey(teamId, userId), ConsistentRead: true }),
  );
  return Item ? toMember(Item) : undefined;
}

/** The read of a team's item, to send alone or beside the caller's membership (with-membership.ts). */
export const teamRead = (teamId: string): ItemRead => ({
  TableName: table(),
  Key: teamKey(teamId),
  ConsistentRead: true,
});

export async function findTeam(teamId: string): Promise<StoredTeam | undefined> {
  const { Item } = await db.send(new GetCommand(teamRead(teamId)));
  return Item ? toTeam(Item) : undefined;
}

/** A new team and its first owner, together or not at all. */
export async function insertTeam(team: StoredTeam, owner: Member): Promise<void> {
  const stored = await transactWrite(() => ({
    TransactItems: [
      {
        Put: {
          TableName: table(),
          Item: { ...teamKey(team.id), ...team, owners: 1 },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: table(), Item: memberItem(team.id, owner) } },
    ],
  }));
  if (!stored) throw new Error(`Team ${team.id} already exists`);
}

/**
 * Renames a team; a personal team's item is made by its first rename (until then its name is its
 * owner's). Undefined when a shared team is gone.
 */
export async function renameTeam(
  teamId: string,
  change: { name: string; updatedAt: string },
  personal?: { createdAt: string },
): Promise<StoredTeam | undefined> {
  const updated = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: teamKey(teamId),
        UpdateExpression: personal
          ? 'SET #name = :name, updatedAt = :updatedAt, createdAt = if_not_exists(createdAt, :createdAt)'
          : 'SET #name = :name, updatedAt = :updatedAt',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: {
          ':name': change.name,
          ':updatedAt': change.updatedAt,
          ...(personal ? { ':createdAt': personal.createdAt } : {}),
        },
        ...(personal ? {} : { ConditionExpression: 'attribute_exists(pk)' }),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated.failed ? undefined : toTeam(updated.result.Attributes ?? {});
}

export interface Membership {
  teamId: string;
  role: TeamRole;
  joinedAt: string;
}

/**
 * Up to `limit` of the teams a user is a member of (personal team aside), by team id, descending,
 * after the team `after` when given; `more` when the list goes on.
 */
export async function listMemberships(
  userId: string,
  page: { limit: number; after?: string },
): Promise<{ items: Membership[]; more: boolean }> {
  const { byMember } = indexes.teams;
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: table(),
      IndexName: byMember.name,
      KeyConditionExpression: '#member = :userId',
      ExpressionAttributeNames: { '#member': byMember.partitionKey },
      ExpressionAttributeValues: { ':userId': userId },
      ScanIndexForward: false,
      // One more than asked: whether the list goes on.
      Limit: page.limit + 1,
      ...(page.after === undefined
        ? {}
        : { ExclusiveStartKey: { ...memberKey(page.after, userId), memberId: userId, teamId: page.after } }),
    }),
  );
  return {
    items: Items.slice(0, page.limit).map((item) => ({
      teamId: String(item.teamId),
      role: roleOf(item) ?? 'viewer',
      joinedAt: String(item.joinedAt),
    })),
    more: Items.length > page.limit,
  };
}

/** Team items by id (at most 100), in no particular order; ids without one are left out. */
export async function findTeams(teamIds: readonly string[]): Promise<StoredTeam[]> {
  const items = await batchGet(table(), teamIds.map(teamKey), { consistent: true });
  return items.map(toTeam);
}

/** Every item of a team's partition but the team item, by key: what deleting the team removes first. */
export async function teamItemKeys(teamId: string): Promise<{ pk: string; sk: string }[]> {
  const keys: { pk: string; sk: string }[] = [];
  await forEachPage(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :teamId',
      ExpressionAttributeValues: { ':teamId': teamId },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    },
    (page) => {
      for (const item of page.items) keys.push({ pk: String(item.pk), sk: String(item.sk) });
    },
  );
  return keys;
}
