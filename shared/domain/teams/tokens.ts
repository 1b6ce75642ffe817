import type * as z from 'zod/mini';
import { type KeyRecord, listTokenRecords, revokeApiKeyById } from '#shared/db/keys/api-keys.ts';
import { releaseFromLedger } from '#shared/db/keys/ledger.ts';
import type { Page } from '#shared/db/pages.ts';
import { listProjects } from '#shared/db/projects.ts';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import { putKeyWithinCap } from '#shared/domain/key-cap.ts';
import type { Caller } from '#shared/model/caller.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { NotFoundError, ValidationError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { scopesOf } from '#shared/model/scopes.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { TeamToken as TeamTokenSchema } from '#shared/schemas/teams/token-resources.ts';
import type { CreateTeamTokenInput } from '#shared/schemas/teams/tokens.ts';
import { teamOpenCheck } from './closing.ts';

// Team tokens: keys that act as their team, for CI. They are API keys in every way admission cares
// about (format, digest-only storage, checksum, one counting write), listed under the team's id, with
// the team and their limits signed into their identity; the member who made one may leave and it
// keeps working. Revoking one holds from its next request.

export type TeamToken = z.output<typeof TeamTokenSchema>;

const DAY_SECONDS = 86_400;

const isoOfSeconds = (seconds: number): string => new Date(seconds * 1000).toISOString();

const shown = (record: KeyRecord): TeamToken => ({
  id: record.keyId,
  name: record.name,
  prefix: record.prefix,
  last4: record.last4,
  scopes: scopesOf(record.scopes),
  projectIds: record.team?.projectIds ?? null,
  targets: DEPLOYMENT_TARGETS.filter((target) => record.team?.targets.includes(target)),
  createdBy: record.createdBy ?? '',
  createdAt: record.createdAt,
  expiresAt: isoOfSeconds(record.expiresAt),
  lastUsedAt: record.lastUsedAt ?? null,
  ...(record.revokedAt === undefined ? {} : { revokedAt: record.revokedAt }),
});

/** Refuses (400) project ids that are not projects of the team: a token cannot reach what is not there. */
async function requireTeamProjects(caller: Caller, projectIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(projectIds)];
  const foreign = unique.find((id) => !isIdOf('prj', id));
  const found =
    foreign === undefined ? await listProjects(caller.team.partition, { limit: 100 }, unique) : undefined;
  const missing = foreign ?? unique.find((id) => !found?.items.some((project) => project.id === id));
  if (missing !== undefined)
    throw new ValidationError(
      'projectIds',
      `projectIds names ${missing}, which is not a project of this team`,
    );
  return unique;
}

export async function createTeamToken(
  caller: Caller,
  input: CreateTeamTokenInput,
): Promise<{ apiKey: string; token: TeamToken }> {
  const projectIds =
    input.projectIds === undefined ? null : await requireTeamProjects(caller, input.projectIds);
  let record: KeyRecord | undefined;
  const issued = await issueApiKey(
    {
      userId: caller.team.id,
      role: 'member',
      name: input.name,
      scopes: [...new Set(input.scopes)],
      ttlSeconds: input.expiresInDays * DAY_SECONDS,
      token: {
        team: {
          teamId: caller.team.id,
          partition: caller.team.partition,
          projectIds,
          targets: [...new Set(input.targets ?? DEPLOYMENT_TARGETS)],
        },
        createdBy: caller.userId,
      },
    },
    // Counted like a user's keys, under the team: minting tokens cannot multiply the allowance.
    async (made) => {
      record = made;
      await putKeyWithinCap(made, 'team', teamOpenCheck(caller));
    },
  );
  if (!record) throw new Error('the token was not stored');
  return { apiKey: issued.apiKey, token: shown(record) };
}

export async function listTeamTokens(caller: Caller, page: PageRequest): Promise<Page<TeamToken>> {
  const listed = await listTokenRecords(caller.team.id, page);
  return { items: listed.items.map(shown), nextCursor: listed.nextCursor };
}

/** Revokes one of the team's tokens: from its next request on, it is a 401. */
export async function revokeTeamToken(caller: Caller, id: string): Promise<void> {
  if (!(await revokeApiKeyById(caller.team.id, id, isoNow())))
    throw new NotFoundError(`Token ${id} was not found`);
  await releaseFromLedger(caller.team.id, id);
}
