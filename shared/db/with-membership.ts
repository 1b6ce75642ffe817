import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TeamRole } from '#shared/model/roles.ts';
import { db } from './client.ts';
import { memberKey, roleOf, table as teamsTable } from './teams.ts';

// One item read together with the caller's membership of the team it belongs to: one BatchGetItem
// instead of two round trips, so a request in a shared team costs what one in a personal team does.
// The membership is read consistently (a role change or a removal holds from the member's next
// request); the item as its reader asks, as it would be read alone (BatchGetItem takes the choice
// per table): an eventually consistent read costs half.

export interface ItemRead {
  TableName: string;
  Key: Record<string, string>;
  ConsistentRead?: boolean;
}

export interface ItemWithRole {
  item: Record<string, unknown> | undefined;
  /** The caller's role in the team; undefined when they are not a member. */
  role: TeamRole | undefined;
}

/** BatchGetItem leaves keys unprocessed under load; they are asked for again, briefly. */
const ATTEMPTS = 5;

export async function getWithMembership(
  read: ItemRead,
  teamId: string,
  userId: string,
): Promise<ItemWithRole> {
  const teams = teamsTable();
  let requested: Record<string, { Keys: Record<string, string>[]; ConsistentRead: boolean }> = {
    [read.TableName]: { Keys: [read.Key], ConsistentRead: read.ConsistentRead === true },
    [teams]: { Keys: [memberKey(teamId, userId)], ConsistentRead: true },
  };
  const found: Record<string, Record<string, unknown> | undefined> = {};
  for (let attempt = 1; Object.keys(requested).length > 0; attempt++) {
    if (attempt > ATTEMPTS) throw new Error('BatchGetItem left keys unprocessed');
    const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: requested }));
    for (const [name, items] of Object.entries(Responses ?? {})) found[name] = items[0];
    requested = (UnprocessedKeys ?? {}) as typeof requested;
  }
  return { item: found[read.TableName], role: roleOf(found[teams]) };
}

/** The item alone, where the role is already known (a personal team). */
export async function getItem(read: ItemRead): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand(read));
  return Item;
}
