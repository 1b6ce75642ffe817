import { ForbiddenError, NotFoundError, type PlatformClient, type Schemas } from '@platform-api/client';
import type { TeamChoice } from './command.ts';
import { CliError } from './flags.ts';
import { isTeamToken, TEAM_TOKEN_ACTS_IN_ITS_TEAM } from './team-token.ts';

// Teams as a user names them: by id (`team_…`) or by name, which must then be unique among theirs.
// A team token names only its own team, by id.

type Team = Schemas['Team'];

const isTeamId = (ref: string): boolean => ref.startsWith('team_');

/** The user's teams whose id or name is `ref`. */
async function teamsNamed(client: PlatformClient, ref: string): Promise<Team[]> {
  const named: Team[] = [];
  for await (const team of client.teams.list({ limit: 100 })) {
    if (team.id === ref || team.name === ref) named.push(team);
  }
  return named;
}

/** One of the user's teams by its name; two of that name is a usage error, none not_found. */
async function teamNamed(client: PlatformClient, name: string): Promise<Team> {
  const named = await teamsNamed(client, name);
  if (named.length > 1) {
    throw new CliError(
      'usage_error',
      `${named.length} of your teams are named ${name}: give its id (${named.map((team) => team.id).join(', ')})`,
    );
  }
  const [team] = named;
  if (!team) throw new CliError('not_found', `You are in no team with the id or name ${name}`, 1);
  return team;
}

/** A team's id from its id (taken as it is: the API answers 404 for a team not yours) or its name. */
export const teamId = async (client: PlatformClient, ref: string): Promise<string> =>
  isTeamId(ref) ? ref : (await teamNamed(client, ref)).id;

/** A team of the user's, as they see it (their role in it), by its id or name. */
export const teamOf = async (client: PlatformClient, ref: string): Promise<Team> =>
  isTeamId(ref) ? client.teams.get(ref) : teamNamed(client, ref);

/** Where the team in effect came from, in words. */
export const chosenBy = { flag: '--team', env: 'PLATFORM_TEAM', switched: '`platform switch`' } as const;

/**
 * The team a team token was told to act in (--team, PLATFORM_TEAM): an id, its own. Another team is
 * 404 from the API on every call; this says so once, in words, before the command runs.
 */
export async function tokenTeamId(client: PlatformClient, choice: TeamChoice): Promise<string> {
  const from = chosenBy[choice.from];
  if (!isTeamId(choice.ref)) {
    throw new CliError(
      'usage_error',
      `${TEAM_TOKEN_ACTS_IN_ITS_TEAM} and cannot look teams up by name: give its id (team_…) with ${from}, or leave ${from} out`,
    );
  }
  try {
    await client.teams.get(choice.ref);
  } catch (error) {
    // A 403 (a token without the read scope) is a team the token is in; another team is 404.
    if (!(error instanceof NotFoundError)) {
      if (error instanceof ForbiddenError) return choice.ref;
      throw error;
    }
    throw new CliError(
      'not_found',
      `Team ${choice.ref} (from ${from}) is not this team token's: ${TEAM_TOKEN_ACTS_IN_ITS_TEAM}; leave ${from} out`,
      1,
    );
  }
  return choice.ref;
}

/** The user's personal team: the first of their list. */
export async function personalTeam(client: PlatformClient): Promise<Team> {
  const { teams } = await client.teams.list({ limit: 1 }).page();
  const personal = teams.find((team) => team.personal);
  if (!personal) throw new CliError('not_found', 'The API listed no personal team', 1);
  return personal;
}

/** The id of the team the client acts in: its `teamId`, else the user's personal team. */
export async function teamInEffect(client: PlatformClient): Promise<string> {
  if (client.teamId) return client.teamId;
  if (isTeamToken(client.apiKey)) {
    // The API knows a token's team, but no route tells the token its id.
    throw new CliError(
      'usage_error',
      `This command names its team in the path, and ${TEAM_TOKEN_ACTS_IN_ITS_TEAM} without knowing its id: give it with --team team_…`,
    );
  }
  return (await personalTeam(client)).id;
}
