import { getItem, getWithMembership, type ItemRead } from '#shared/db/with-membership.ts';
import type { Caller } from '#shared/model/caller.ts';
import { learnRole } from './team-access.ts';

/**
 * Reads an item of the caller's team; where their role there is not known yet, in the same call as
 * their membership (404 for the team when they are not in it). The routes that take this path say
 * so in their row (`membership: 'withResource'`), and authorize after it, before any write.
 */
export async function readInTeam(
  caller: Caller,
  read: ItemRead,
): Promise<Record<string, unknown> | undefined> {
  if (caller.team.role !== undefined) return getItem(read);
  const { item, role } = await getWithMembership(read, caller.team.id, caller.userId);
  learnRole(caller, role);
  return item;
}
