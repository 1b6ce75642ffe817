import { isoNow } from '../clock.ts';
import type { Page } from '../db/pages.ts';
import * as projects from '../db/projects.ts';
import { NotFoundError } from '../errors.ts';
import { ID_PATTERN, newId } from '../ids.ts';
import type { PageRequest } from '../schemas/common.ts';
import type { CreateProjectInput } from '../schemas/projects.ts';
import type { Caller } from './caller.ts';

export type { Project } from '../db/projects.ts';

const DEFAULT_PRODUCTION_BRANCH = 'main';

const isProjectId = (id: string): boolean => id.startsWith('prj_') && ID_PATTERN.test(id.slice(4));

export async function createProject(caller: Caller, input: CreateProjectInput): Promise<projects.Project> {
  const now = isoNow();
  const project: projects.Project = {
    id: newId('prj'),
    name: input.name,
    repository: input.repository ?? null,
    productionBranch: input.productionBranch ?? DEFAULT_PRODUCTION_BRANCH,
    createdAt: now,
    updatedAt: now,
  };
  await projects.putProject(caller.userId, project);
  return project;
}

/**
 * The caller's project, or NotFoundError: an unknown id and another user's project are the same
 * 404, so the answer never confirms that someone else's project exists.
 */
export async function getProject(caller: Caller, id: string): Promise<projects.Project> {
  const project = isProjectId(id) ? await projects.findProject(caller.userId, id) : undefined;
  if (!project) throw new NotFoundError(`Project ${id} was not found`);
  return project;
}

export const listProjects = (caller: Caller, page: PageRequest): Promise<Page<projects.Project>> =>
  projects.listProjects(caller.userId, page);
