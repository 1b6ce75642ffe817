import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAttempt } from '#shared/db/batch-get.ts';
import { db } from '#shared/db/client.ts';
import { transactWriteReasons } from '#shared/db/conditional.ts';
import { type Page, queryPage } from '#shared/db/pages.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { isClosingKey, type Member, memberKey, table, teamItemKeys, teamKey, toMember } from './teams.ts';

// Changes to who is in a team. The team item counts its owners, and every change that takes an
// owner away decrements it on condition that another remains, in the same transaction as the change:
// of two owners demoting each other at once, exactly one succeeds, and a team never has none.

export async function listMembers(teamId: string, page: PageRequest): Promise<Page<Member>> {
  const result = await queryPage(
    {
      scope: `members:${teamId}`,
      query: {
        TableName: table(),
        KeyConditionExpression: 'pk = :teamId AND begins_with(sk, :member)',
        ExpressionAttributeValues: { ':teamId': teamId, ':member': 'member#' },
        ConsistentRead: true,
      },
      resume: { keyOf: (userId) => memberKey(teamId, userId) },
    },
    page,
  );
  return { items: result.items.map(toMember), nextCursor: result.nextCursor };
}

/** Why a change was refused: the member changed or left meanwhile, or they are the last owner. */
export type MemberChange = 'done' | 'changed' | 'last_owner';

/** The team item's owner count, moved by `delta`; never below one. */
const ownerCount = (teamId: string, delta: 1 | -1) => ({
  Update: {
    TableName: table(),
    Key: teamKey(teamId),
    UpdateExpression: 'ADD owners :delta',
    ConditionExpression: delta < 0 ? 'owners > :one' : 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':delta': delta, ...(delta < 0 ? { ':one': 1 } : {}) },
  },
});

const ownersDelta = (from: TeamRole, to: TeamRole | undefined): 1 | -1 | 0 => {
  if (from === 'owner' && to !== 'owner') return -1;
  if (from !== 'owner' && to === 'owner') return 1;
  return 0;
};

async function changeMember(
  teamId: string,
  userId: string,
  from: TeamRole,
  to: TeamRole | undefined,
): Promise<MemberChange> {
  const delta = ownersDelta(from, to);
  const onMember = {
    TableName: table(),
    Key: memberKey(teamId, userId),
    ConditionExpression: '#role = :from',
    ExpressionAttributeNames: { '#role': 'role' },
  };
  const change =
    to === undefined
      ? { Delete: { ...onMember, ExpressionAttributeValues: { ':from': from } } }
      : {
          Update: {
            ...onMember,
            UpdateExpression: 'SET #role = :to',
            ExpressionAttributeValues: { ':from': from, ':to': to },
          },
        };
  const outcome = await transactWriteReasons(() => ({
    TransactItems: delta === 0 ? [change] : [change, ownerCount(teamId, delta)],
  }));
  if (outcome.done) return 'done';
  if (outcome.reasons[0] === 'ConditionalCheckFailed') return 'changed';
  if (outcome.reasons[1] === 'ConditionalCheckFailed') return 'last_owner';
  throw outcome.error;
}

/** Gives a member another role, if they still hold `from`. */
export const changeRole = (
  teamId: string,
  userId: string,
  from: TeamRole,
  to: TeamRole,
): Promise<MemberChange> => changeMember(teamId, userId, from, to);

/** Takes a member out of the team, if they still hold `from`. */
export const removeMember = (teamId: string, userId: string, from: TeamRole): Promise<MemberChange> =>
  changeMember(teamId, userId, from, undefined);

/** BatchWriteItem's limit per call. */
const BATCH = 25;

/**
 * Deletes a team: its invitations and other members first, then, in one transaction, the team item
 * and the caller's membership, so that until the end the team is whole for whoever may retry, and
 * no member is ever left in a team that is gone. (Invitation codes expire by TTL; accepting one
 * needs its invitation item, which goes here.)
 */
export async function deleteTeamItems(teamId: string, callerId: string): Promise<boolean> {
  const last = [teamKey(teamId), memberKey(teamId, callerId)].map((key) => `${key.pk}|${key.sk}`);
  // The closing item stays (shared/db/teams/teams.ts): it refuses what a late request would add.
  const first = (await teamItemKeys(teamId)).filter(
    (key) => !last.includes(`${key.pk}|${key.sk}`) && !isClosingKey(key),
  );
  for (let at = 0; at < first.length; at += BATCH) {
    let requests = first.slice(at, at + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      // Unprocessed under throttling: asked again after a wait, a bounded number of times.
      await beforeAttempt(attempt, table());
      const { UnprocessedItems } = await db.send(
        new BatchWriteCommand({ RequestItems: { [table()]: requests } }),
      );
      requests = (UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
  const outcome = await transactWriteReasons(() => ({
    TransactItems: [
      { Delete: { TableName: table(), Key: teamKey(teamId), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: table(), Key: memberKey(teamId, callerId) } },
    ],
  }));
  if (!outcome.done && outcome.reasons[0] !== 'ConditionalCheckFailed') throw outcome.error;
  return outcome.done;
}
