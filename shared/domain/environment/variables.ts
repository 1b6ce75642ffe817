import type * as z from 'zod/mini';
import { recordBuildEnvRead } from '#shared/db/deployments/build-env-reads.ts';
import * as snapshots from '#shared/db/environment/snapshots.ts';
import * as store from '#shared/db/environment/variables.ts';
import type { Page } from '#shared/db/pages.ts';
import { findProject, type Project, projectRead, toProject } from '#shared/db/projects.ts';
import { getProject } from '#shared/domain/projects.ts';
import { readInTeam } from '#shared/domain/teams/reads.ts';
import { mustReachDeployment } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import {
  DEPLOYMENT_TARGETS,
  type DeploymentTarget,
  deploymentTarget,
} from '#shared/model/deployments/target.ts';
import { MAX_BUILD_ENV_READS, type VariableType } from '#shared/model/environment-variables.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { roleAllows } from '#shared/model/roles.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import { mapLimited, unseal } from '#shared/runtime/envelope.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type {
  BuildEnvironment as BuildEnvironmentSchema,
  EnvironmentVariable as EnvironmentVariableSchema,
} from '#shared/schemas/environment/resources.ts';

// A project's environment variables, and what a deployment builds with.
//
// - Every value is sealed before it is stored (shared/runtime/envelope.ts), bound to the project, the
//   variable and its type. A `secret` is never opened but for a build's read (`build-env`); the
//   answers of every other route leave its `value` out. A `plain` value is opened to be shown (in
//   AWS only plain values may be opened by those functions: the key policy is conditional on the
//   type in the context).
// - Changes to one project's set are serial: each is conditional on the set's revision as read, and
//   tried again on the newer one when another change got there first.
// - A deployment gets a snapshot of its target's variables when it is created.

export type EnvironmentVariable = z.output<typeof EnvironmentVariableSchema>;
export type BuildEnvironment = z.output<typeof BuildEnvironmentSchema>;

/** How often a change is tried when other changes of the same project keep getting there first. */
export const ATTEMPTS = 3;
/** KMS calls at once, for a replace or a build's read. */
export const SEALING_CONCURRENCY = 10;

const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);
/** What a sealed value is bound to: opening it under another project, variable or type fails. */
export const contextOf = (projectId: string, variableId: string, type: VariableType) => ({
  project: projectId,
  variable: variableId,
  type,
});

/** A variable as the API shows it: a plain one with its value (given, or opened), a secret without. */
export async function shown(
  projectId: string,
  variable: store.StoredVariable,
  value?: string,
): Promise<EnvironmentVariable> {
  const { sealed: _sealed, ...fields } = variable;
  if (variable.type === 'secret') return fields;
  const plain =
    value ??
    (variable.sealed ? await unseal(variable.sealed, contextOf(projectId, variable.id, 'plain')) : '');
  return { ...fields, value: plain };
}

/** A page of one of the caller's projects' variables, newest first: 404 for anyone else's project. */
export async function listEnvironment(
  caller: Caller,
  projectId: string,
  page: PageRequest,
): Promise<Page<EnvironmentVariable>> {
  const [, head] = await Promise.all([getProject(caller, projectId), store.readHead(projectId)]);
  if (!head) return { items: [], nextCursor: null };
  const found = await store.listVariables(projectId, head.version, page);
  return {
    items: await mapLimited(found.items, SEALING_CONCURRENCY, (variable) => shown(projectId, variable)),
    nextCursor: found.nextCursor,
  };
}

/**
 * One of the caller's projects, read consistently with the copy of its variables' head it carries
 * (so a variable written before this request is in a deployment made by it): what a deployment's
 * create reads. 404 as for getProject.
 */
export async function projectWithVariablesHead(
  caller: Caller,
  projectId: string,
): Promise<{ project: Project; head: HeadAsRead }> {
  const item = isIdOf('prj', projectId)
    ? await readInTeam(caller, projectRead(caller.team.partition, projectId, { consistent: true }))
    : undefined;
  if (!item) throw new NotFoundError(`Project ${projectId} was not found`);
  const carried = store.headOnProject(item);
  return {
    project: toProject(item),
    head: carried === undefined ? { copyTo: caller.team.partition } : { carried },
  };
}

/**
 * What a deployment's create knows of its project's variables' head: the copy its project item
 * carries; none on an item written before the copy existed (read the head, and copy it onto the
 * item for the next create); or nothing, the project not read (a redeploy): read the head.
 */
export type HeadAsRead = { carried: store.Head | null } | { copyTo: string } | undefined;

/**
 * Copies the variables of a new deployment's target, sealed as they are, into its snapshot; called
 * before the deployment is stored (shared/domain/deployments/deployments.ts decides the target).
 */
export async function snapshotForDeployment(
  deployment: { id: string; projectId: string },
  target: DeploymentTarget,
  known: HeadAsRead,
): Promise<void> {
  const { id, projectId } = deployment;
  let head: store.Head | undefined;
  if (known && 'carried' in known) head = known.carried ?? undefined;
  else {
    head = await store.readHead(projectId);
    if (known) await store.copyHeadToProject(known.copyTo, projectId, head);
  }
  let variables: store.StoredVariable[] = [];
  // A head that counts none (every variable deleted) has nothing to read.
  for (let tries = 1; head && head.count > 0 && tries <= ATTEMPTS; tries++) {
    variables = await store.allVariables(projectId, head.version, { sealed: true });
    // Fewer than the head counts: a replace deleted that version meanwhile. Read the new one.
    if (variables.length === head.count) break;
    head = await store.readHead(projectId);
  }
  const forTarget = variables
    .filter((variable) => variable.targets.includes(target))
    .map(({ id: variableId, key, type, sealed }) => ({ id: variableId, key, type, sealed: sealed ?? '' }));
  // No variables, no snapshot item: the deployment keeps its target itself (the caller stores it),
  // so a project without variables pays nothing here, and no write.
  if (forTarget.length > 0) await snapshots.putSnapshot(projectId, id, { target, variables: forTarget });
}

const isDeploymentTarget = (value: unknown): value is DeploymentTarget =>
  (DEPLOYMENT_TARGETS as readonly unknown[]).includes(value);

/**
 * A deployment's build environment, secrets opened, for a `build` key: only while it is queued or
 * building (409 after), and recorded in its history first (a refused read is not). A production
 * deployment's holds production's secrets: reading it takes what writing them takes (an admin's
 * role, or a team token made for production, which mustReachDeployment checks); a developer's
 * production build runs with such a token.
 */
export async function readBuildEnvironment(caller: Caller, deploymentId: string): Promise<BuildEnvironment> {
  const notFound = () => new NotFoundError(`Deployment ${deploymentId} was not found`);
  if (!isDeploymentId(deploymentId)) throw notFound();
  await mustReachDeployment(caller, deploymentId, { doing: 'read its build environment' });
  const read = await recordBuildEnvRead(caller.team.partition, deploymentId, {
    keyId: caller.keyId,
    at: isoNow(),
    previewsOnly: !roleAllows(caller.team.role ?? 'viewer', 'variables.write_production'),
  });
  if (read.outcome === 'missing') throw notFound();
  if (read.outcome === 'production') {
    throw new ForbiddenError(
      `Deployment ${deploymentId} is a production deployment: reading its build environment (production's secrets) needs the admin role (variables.write_production), or a team token made for production`,
    );
  }
  if (read.outcome === 'exhausted') {
    throw new ConflictError(
      `Deployment ${deploymentId}'s build environment was read ${MAX_BUILD_ENV_READS} times, as often as one deployment may; redeploy to build it again`,
    );
  }
  if (read.outcome === 'refused') {
    throw new ConflictError(
      `Deployment ${deploymentId} is ${read.status}; its build environment can be read only while it is queued or building`,
    );
  }
  const snapshot = await snapshots.readSnapshot(read.projectId, deploymentId);
  if (!snapshot) {
    // No variables for its target when it was made (or made before snapshots existed): it builds
    // with none, for the target stored with it (older deployments: the branch rule).
    if (isDeploymentTarget(read.target)) return { variables: {}, target: read.target };
    const project = await findProject(caller.team.partition, read.projectId);
    return { variables: {}, target: deploymentTarget(read.branch, project?.productionBranch ?? '') };
  }
  const values = await mapLimited(snapshot.variables, SEALING_CONCURRENCY, (variable) =>
    unseal(variable.sealed, contextOf(read.projectId, variable.id, variable.type)),
  );
  return {
    variables: Object.fromEntries(
      snapshot.variables.map((variable, index) => [variable.key, values[index] ?? '']),
    ),
    target: snapshot.target,
  };
}
