import type { ItemRead } from '#shared/db/batch-get.ts';
import { getItem, getWithMembership } from '#shared/db/teams/with-membership.ts';
import type { Caller } from '#shared/model/caller.ts';
import { learnRole } from './access.ts';

/**
 * Reads an item of the caller's team; where their role there is not known yet, in the same call as
 * their membership (404 for the team when they are not in it). The routes that take this path say
 * so in their row (`membership: 'withResource'`), and authorize after it, before any write.
 *
 * An item not found by a read that may lag is read once more, consistently: a client that GETs
 * what its 201 just named must not be told it does not exist. Only a miss pays for it.
 */
export async function readInTeam(
  caller: Caller,
  read: ItemRead,
): Promise<Record<string, unknown> | undefined> {
  let item: Record<string, unknown> | undefined;
  if (caller.team.role !== undefined) item = await getItem(read);
  else {
    const found = await getWithMembership(read, caller.team.id, caller.userId);
    learnRole(caller, found.role);
    item = found.item;
  }
  if (item !== undefined || read.ConsistentRead === true) return item;
  return getItem({ ...read, ConsistentRead: true });
}
