// Team tokens (`platform tokens create`) as the CLI's key. A token acts as its team, not as a person:
// it has no personal team and no list of teams to find one by name in, and the team `platform switch`
// chose belongs to the person's login, not to it.

/** What the API begins a team token with; a user's keys begin `plat_`. */
export const TEAM_TOKEN_PREFIX = 'platt_';

export const isTeamToken = (apiKey: string | undefined): boolean =>
  apiKey?.startsWith(TEAM_TOKEN_PREFIX) ?? false;

/** Why a team token cannot do what a person's key would. */
export const TEAM_TOKEN_ACTS_IN_ITS_TEAM = 'a team token acts in its own team only';
