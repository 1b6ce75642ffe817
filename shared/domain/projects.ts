import { purgeProjectDeployments } from '#shared/db/deployments/writes.ts';
import { purgeEnvironment } from '#shared/db/environment/snapshots.ts';
import type { Page } from '#shared/db/pages.ts';
import * as projects from '#shared/db/projects.ts';
import { teamClosed, teamOpenCheck } from '#shared/domain/teams/closing.ts';
import { readInTeam } from '#shared/domain/teams/reads.ts';
import { mustTarget, reaches, spansTeam } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { clock, isoNow } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { CreateProjectInput, UpdateProjectInput } from '#shared/schemas/projects.ts';

export type { Project } from '#shared/db/projects.ts';

const DEFAULT_PRODUCTION_BRANCH = 'main';

const isProjectId = (id: string): boolean => isIdOf('prj', id);

/** An id the caller may name: a project's, within its token's projects. Any other is 404 unread. */
export const mayReachProject = (caller: Caller, id: string): boolean =>
  isProjectId(id) && reaches(caller, id);

export async function createProject(caller: Caller, input: CreateProjectInput): Promise<projects.Project> {
  spansTeam(caller, 'create projects');
  const now = isoNow();
  const project: projects.Project = {
    id: newId('prj'),
    name: input.name,
    repository: input.repository ?? null,
    productionBranch: input.productionBranch ?? DEFAULT_PRODUCTION_BRANCH,
    production: null,
    autoPromotion: true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await projects.putProject(caller.team.partition, project, teamOpenCheck(caller)))) {
    throw teamClosed(caller.team.id);
  }
  return project;
}

/**
 * The caller's project, or NotFoundError: an unknown id and another user's project are the same
 * 404, so the answer never confirms that someone else's project exists.
 */
export async function getProject(caller: Caller, id: string): Promise<projects.Project> {
  // An id of another shape is 404 in any team, member or not: nothing to read.
  if (!mayReachProject(caller, id)) throw notFound(id);
  const item = await readInTeam(caller, projects.projectRead(caller.team.partition, id));
  if (!item) throw notFound(id);
  return projects.toProject(item);
}

export const listProjects = (caller: Caller, page: PageRequest): Promise<Page<projects.Project>> =>
  projects.listProjects(caller.team.partition, page, caller.token?.projectIds);

const notFound = (id: string): NotFoundError => new NotFoundError(`Project ${id} was not found`);

/**
 * Changes the caller's project; 404 as for a get, also when it was deleted meanwhile. Its production
 * branch is production's: it chooses what the next production deployment ships, so a team token
 * not made for production may not change it (403).
 */
export async function updateProject(
  caller: Caller,
  id: string,
  input: UpdateProjectInput,
): Promise<projects.Project> {
  const reached = mayReachProject(caller, id);
  if (reached && input.productionBranch !== undefined)
    mustTarget(caller, 'production', 'change the production branch');
  const updated = reached
    ? await projects.updateProject(caller.team.partition, id, { ...input, updatedAt: isoNow() })
    : undefined;
  if (!updated) throw notFound(id);
  return updated;
}

/**
 * How long a DELETE spends removing deployments itself: a small project is gone entirely when the
 * answer comes, and the purge consumer of the project's removal finishes a large one in the background.
 */
const INLINE_PURGE_MS = 1_000;

/**
 * Deletes the caller's project at once (it is 404 from then on, and so is a second DELETE), then
 * its deployments and environment variables: within the request while time allows, the rest in the background.
 */
export async function deleteProject(caller: Caller, id: string): Promise<void> {
  if (!mayReachProject(caller, id) || !(await projects.deleteProject(caller.team.partition, id)))
    throw notFound(id);
  const until = clock.now() + INLINE_PURGE_MS;
  await Promise.all([purgeProjectDeployments(id, until), purgeEnvironment(id, until)]);
}
