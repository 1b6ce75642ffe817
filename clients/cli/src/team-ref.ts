import type { PlatformClient, Schemas } from '@platform-api/client';
import { CliError } from './flags.ts';

// Teams as a user names them: by id (`team_…`) or by name, which must then be unique among theirs.

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

/** The user's personal team: the first of their list. */
export async function personalTeam(client: PlatformClient): Promise<Team> {
  const { teams } = await client.teams.list({ limit: 1 }).page();
  const personal = teams.find((team) => team.personal);
  if (!personal) throw new CliError('not_found', 'The API listed no personal team', 1);
  return personal;
}

/** The id of the team the client acts in: its `teamId`, else the user's personal team. */
export const teamInEffect = async (client: PlatformClient): Promise<string> =>
  client.teamId ?? (await personalTeam(client)).id;
