import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import type { Page } from '#shared/db/pages.ts';
import { countProjects } from '#shared/db/projects.ts';
import { deleteTeamItems } from '#shared/db/teams/members.ts';
import * as store from '#shared/db/teams/teams.ts';
import { findUser } from '#shared/db/users.ts';
import { allWebhooksOf, deleteWebhook } from '#shared/db/webhooks/webhooks.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError } from '#shared/model/errors.ts';
import { newId } from '#shared/model/ids.ts';
import type { TeamRole } from '#shared/model/roles.ts';
import { personalTeamIdOf } from '#shared/model/teams.ts';
import { clock, isoNow } from '#shared/runtime/clock.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/runtime/function-settings.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateTeamInput } from '#shared/schemas/teams/teams.ts';
import { teamNotFound } from './access.ts';
import { readInTeam } from './reads.ts';
import { revokeAllTeamTokens } from './token-revocation.ts';

// Teams as their members see them. A personal team has no item until it is renamed: its name is its
// owner's, so users made before teams have one without anything written for them.

export interface Team {
  id: string;
  name: string;
  personal: boolean;
  role: TeamRole;
  createdAt: string;
  updatedAt: string;
}

const shown = (team: store.StoredTeam, role: TeamRole, personal = false): Team => ({
  ...team,
  personal,
  role,
});

/** The caller's personal team, from its item when it was renamed, else from the caller. */
async function personalTeam(userId: string, stored?: store.StoredTeam): Promise<Team> {
  const id = personalTeamIdOf(userId);
  if (stored) return shown(stored, 'owner', true);
  const user = await findUser(userId);
  const since = user?.createdAt ?? isoNow();
  return {
    id,
    name: user?.name ?? user?.email ?? 'Personal',
    personal: true,
    role: 'owner',
    createdAt: since,
    updatedAt: since,
  };
}

/** Who the caller is as a member: their email and name as they are now. */
export async function memberProfile(userId: string, role: TeamRole): Promise<store.Member> {
  const user = await findUser(userId);
  return { userId, email: user?.email ?? '', name: user?.name ?? null, role, joinedAt: isoNow() };
}

export async function createTeam(caller: Caller, input: CreateTeamInput): Promise<Team> {
  const now = isoNow();
  const team = { id: newId('team'), name: input.name, createdAt: now, updatedAt: now };
  await store.insertTeam(team, { ...(await memberProfile(caller.userId, 'owner')), joinedAt: now });
  return shown(team, 'owner');
}

/** What a page of teams ends with: the personal team (first of all), or the last team id shown. */
const PERSONAL_FIRST = 'personal';

/**
 * The caller's teams: their personal team first (it takes the first place of the first page), then
 * those they joined. The cursor holds the last one shown.
 */
export async function listTeams(caller: Caller, page: PageRequest): Promise<Page<Team>> {
  const scope = `teams:${caller.userId}`;
  const last = page.cursor === undefined ? undefined : await decodeCursor(scope, page.cursor);
  const first = last === undefined;
  const memberships = await store.listMemberships(caller.userId, {
    limit: first ? page.limit - 1 : page.limit,
    ...(last === undefined || last === PERSONAL_FIRST ? {} : { after: last }),
  });
  const personalId = personalTeamIdOf(caller.userId);
  const ids = memberships.items.map((membership) => membership.teamId);
  const found = new Map(
    (await store.findTeams(first ? [personalId, ...ids] : ids)).map((team) => [team.id, team]),
  );
  const joined = memberships.items.flatMap((membership) => {
    const team = found.get(membership.teamId);
    // A team deleted meanwhile: its members go last, so theirs may still be listed for a moment.
    return team ? [shown(team, membership.role)] : [];
  });
  const teams = first ? [await personalTeam(caller.userId, found.get(personalId)), ...joined] : joined;
  const lastShown = memberships.items.at(-1)?.teamId ?? PERSONAL_FIRST;
  return { items: teams, nextCursor: memberships.more ? await encodeCursor(scope, lastShown) : null };
}

/**
 * The team the request acts in, as its member sees it: in a shared team, its item is read with the
 * caller's membership (one call; 404 for one who is not in it).
 */
export async function getTeam(caller: Caller): Promise<Team> {
  const { team } = caller;
  const item = await readInTeam(caller, store.teamRead(team.id));
  const stored = item && store.toTeam(item);
  if (team.personal) return personalTeam(caller.userId, stored);
  if (!stored || team.role === undefined) throw teamNotFound(team.id);
  return shown(stored, team.role);
}

export async function renameTeam(caller: Caller, name: string): Promise<Team> {
  const { team } = caller;
  const now = isoNow();
  const since = team.personal ? (await personalTeam(caller.userId)).createdAt : undefined;
  const renamed = await store.renameTeam(
    team.id,
    { name, updatedAt: now },
    since ? { createdAt: since } : undefined,
  );
  if (!renamed) throw teamNotFound(team.id);
  return shown(renamed, team.role ?? 'owner', team.personal);
}

/**
 * How long a deletion keeps its team closed to new projects, webhooks and tokens: its own function's
 * time, then the time of a request that passed its membership check just before the team went.
 */
const CLOSED_FOR_MS = 2 * FUNCTION_TIMEOUT_SECONDS * 1000;

/**
 * Deletes a team that has no projects left (409 naming how many it has); never a personal team.
 * Closed first: a project, webhook or token written after the close is refused (409), and one
 * written before it is seen by the consistent reads that follow, so nothing is left behind in a
 * team that is gone. A deletion that does not go ahead opens the team again.
 */
export async function deleteTeam(caller: Caller): Promise<void> {
  const { team } = caller;
  if (team.personal) throw new ConflictError('A personal team cannot be deleted');
  const until = clock.now() + CLOSED_FOR_MS;
  await store.closeTeam(team.id, until);
  try {
    const projects = await countProjects(team.partition);
    if (projects > 0) {
      throw new ConflictError(
        `Team ${team.id} still has ${projects} project${projects === 1 ? '' : 's'}: delete ${projects === 1 ? 'it' : 'them'} first`,
      );
    }
    // Its tokens first: none may act in a team that is going. Then its webhooks: nothing of it is
    // left to send them events, and no one could list or delete them afterwards.
    await revokeAllTeamTokens(team.id);
    for (const webhook of await allWebhooksOf(team.partition, { consistent: true })) {
      await deleteWebhook(team.partition, webhook.id);
    }
    if (!(await deleteTeamItems(team.id, caller.userId))) throw teamNotFound(team.id);
  } catch (error) {
    // Were the reopening to fail, the close ends by itself at `until`; the deletion's error is the answer.
    await store.reopenTeam(team.id, until).catch(() => undefined);
    throw error;
  }
}
