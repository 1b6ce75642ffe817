import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAttempt, type ItemRead } from '#shared/db/batch-get.ts';
import { db } from '#shared/db/client.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import { memberKey, roleOf, table as teamsTable } from './teams.ts';

// One item read together with the caller's membership of the team it belongs to: one BatchGetItem
// instead of two round trips, so a request in a shared team costs what one in a personal team does.
// The membership is read consistently (a role change or a removal holds from the member's next
// request); the item as its reader asks, as it would be read alone (BatchGetItem takes the choice
// per table): an eventually consistent read costs half.

export interface ItemWithRole {
  item: Record<string, unknown> | undefined;
  /** The caller's role in the team; undefined when they are not a member. */
  role: TeamRole | undefined;
}

type Key = Record<string, string>;
type Item = Record<string, unknown>;

const hasKey = (item: Item, key: Key): boolean =>
  Object.entries(key).every(([name, value]) => item[name] === value);

export async function getWithMembership(
  read: ItemRead,
  teamId: string,
  userId: string,
): Promise<ItemWithRole> {
  const teams = teamsTable();
  const member = memberKey(teamId, userId);
  // An item of the teams table itself (the team) is asked for beside the membership, under the one
  // table name BatchGetItem takes once: read consistently, as the membership must be.
  let requested: Record<string, { Keys: Key[]; ConsistentRead: boolean }> =
    read.TableName === teams
      ? { [teams]: { Keys: [read.Key, member], ConsistentRead: true } }
      : {
          [read.TableName]: { Keys: [read.Key], ConsistentRead: read.ConsistentRead === true },
          [teams]: { Keys: [member], ConsistentRead: true },
        };
  const found: { table: string; item: Item }[] = [];
  for (let attempt = 1; Object.keys(requested).length > 0; attempt++) {
    await beforeAttempt(attempt, `${read.TableName} and ${teams}`);
    const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: requested }));
    for (const [table, items] of Object.entries(Responses ?? {})) {
      found.push(...items.map((item) => ({ table, item })));
    }
    requested = (UnprocessedKeys ?? {}) as typeof requested;
  }
  const itemOf = (table: string, key: Key): Item | undefined =>
    found.find((each) => each.table === table && hasKey(each.item, key))?.item;
  return { item: itemOf(read.TableName, read.Key), role: roleOf(itemOf(teams, member)) };
}

/**
 * The caller's role alone, read as the rows that read it beside their resource are allowed to read
 * it (BatchGetItem): for what such a row answers without its resource (a replayed request, a
 * refusal that comes before it).
 */
export async function roleAlone(teamId: string, userId: string): Promise<TeamRole | undefined> {
  const teams = teamsTable();
  const member = memberKey(teamId, userId);
  let requested: Record<string, { Keys: Key[]; ConsistentRead: boolean }> = {
    [teams]: { Keys: [member], ConsistentRead: true },
  };
  let found: Item | undefined;
  for (let attempt = 1; Object.keys(requested).length > 0; attempt++) {
    await beforeAttempt(attempt, teams);
    const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: requested }));
    found ??= Responses?.[teams]?.[0];
    requested = (UnprocessedKeys ?? {}) as typeof requested;
  }
  return roleOf(found);
}

/** The item alone, where the role is already known (a personal team). */
export async function getItem(read: ItemRead): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand(read));
  return Item;
}
