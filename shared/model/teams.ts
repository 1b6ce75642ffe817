import { ID_MAX_LENGTH } from './ids.ts';
import type { TeamRole } from './roles.ts';

// Which team a request acts in, and where that team's resources are stored. Every user has a
// personal team: its id is the user's id under the team prefix, so finding it costs no read, and
// its resources are stored under the user's id, where everything made before teams already is:
// the upgrade rewrites nothing and a half-finished one cannot exist. Any other team stores its
// resources under its own id.

export const TEAM_ID_PREFIX = 'team_';
const USER_ID_PREFIX = 'usr_';

/** Ids a client may name: ours have the prefix and at most ID_MAX_LENGTH characters of this alphabet. */
const TEAM_ID_PATTERN = new RegExp(
  `^${TEAM_ID_PREFIX}[A-Za-z0-9_-]{1,${ID_MAX_LENGTH - TEAM_ID_PREFIX.length}}$`,
);

export const isTeamId = (value: string): boolean => TEAM_ID_PATTERN.test(value);

/** The user's personal team: `usr_X` has `team_X`. */
export const personalTeamIdOf = (userId: string): string =>
  TEAM_ID_PREFIX + (userId.startsWith(USER_ID_PREFIX) ? userId.slice(USER_ID_PREFIX.length) : userId);

/** The team a request acts in. */
export interface TeamContext {
  id: string;
  /** The `ownerId` its projects, deployments and webhooks are stored under. */
  partition: string;
  personal: boolean;
  /**
   * The caller's role there, once known: at once in their personal team, after the membership has
   * been read (shared/domain/teams/access.ts) in any other. Nothing is answered before it is known.
   */
  role?: TeamRole;
}

/** A user's personal team, in which they are the owner. */
export const personalTeamOf = (userId: string): TeamContext => ({
  id: personalTeamIdOf(userId),
  partition: userId,
  personal: true,
  role: 'owner',
});

/** Another team, the caller's role there not read yet. */
export const sharedTeam = (teamId: string): TeamContext => ({
  id: teamId,
  partition: teamId,
  personal: false,
});

/** The team whose resources are stored under `partition`: a team's own id, or its user's personal team. */
export const teamOfPartition = (partition: string): string =>
  partition.startsWith(TEAM_ID_PREFIX) ? partition : personalTeamIdOf(partition);
