import type * as z from 'zod/mini';
import { recordBuildEnvRead } from '#shared/db/build-env-reads.ts';
import * as snapshots from '#shared/db/env-snapshots.ts';
import * as store from '#shared/db/environment-variables.ts';
import type { Page } from '#shared/db/pages.ts';
import { findProject, type Project, projectRead, toProject } from '#shared/db/projects.ts';
import type { Caller } from '#shared/model/caller.ts';
import {
  DEPLOYMENT_TARGETS,
  type DeploymentTarget,
  deploymentTarget,
} from '#shared/model/deployment-target.ts';
import {
  canonicalTargets,
  ENVIRONMENT_TARGETS,
  type EnvironmentTarget,
  MAX_BUILD_ENV_READS,
  MAX_VARIABLES_PER_PROJECT,
  overlapOf,
  type VariableType,
} from '#shared/model/environment-variables.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import { mapLimited, seal, unseal } from '#shared/runtime/envelope.ts';
import { logError } from '#shared/runtime/log.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type {
  CreateVariableInput,
  ReplaceEnvironmentInput,
  UpdateVariableInput,
} from '#shared/schemas/environment.ts';
import type {
  BuildEnvironment as BuildEnvironmentSchema,
  EnvironmentVariable as EnvironmentVariableSchema,
} from '#shared/schemas/environment-resources.ts';
import { getProject } from './projects.ts';
import { authorize } from './team-access.ts';
import { readInTeam } from './team-reads.ts';
import { mayTarget, mustReachDeployment } from './token-reach.ts';

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
const ATTEMPTS = 3;
/** KMS calls at once, for a replace or a build's read. */
const SEALING_CONCURRENCY = 10;

const isVariableId = (id: string): boolean => isIdOf('env', id);
const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);

const variableNotFound = (id: string) => new NotFoundError(`Variable ${id} was not found`);
const changedMeanwhile = () =>
  new ConflictError("The project's variables kept changing while this request ran; try again");

/** What a sealed value is bound to: opening it under another project, variable or type fails. */
export const contextOf = (projectId: string, variableId: string, type: VariableType) => ({
  project: projectId,
  variable: variableId,
  type,
});

/** A variable as the API shows it: a plain one with its value (given, or opened), a secret without. */
async function shown(
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

const firstOverlap = (
  candidate: { id?: string; key: string; targets: EnvironmentTarget[] },
  others: readonly store.StoredVariable[],
): ConflictError | undefined => {
  for (const other of others) {
    if (other.id === candidate.id) continue;
    const target = overlapOf(candidate, other);
    if (target)
      return new ConflictError(`Variable ${candidate.key} already exists for target ${target} (${other.id})`);
  }
  return undefined;
};

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
 * Runs a change against the project's set as it is now, again when the set moved first; `attempt`
 * gets the head and the variables (without values) and returns what it did, or undefined to be run
 * again. The set may also have "moved" by the attempt's own write, applied but its answer lost and
 * the retry judged afresh: each change recognizes its own write in what it reads again.
 */
async function serially<T>(
  projectId: string,
  attempt: (head: store.Head | undefined, current: store.StoredVariable[]) => Promise<T | undefined>,
): Promise<T> {
  for (let tries = 1; tries <= ATTEMPTS; tries++) {
    const head = await store.readHead(projectId);
    const current = head ? await store.allVariables(projectId, head.version, { sealed: false }) : [];
    const done = await attempt(head, current);
    if (done !== undefined) return done;
  }
  throw changedMeanwhile();
}

/** What a write of the head means to `serially`: the value, read again (undefined), or 404. */
function settled<T>(projectId: string, outcome: store.HeadWriteOutcome, value: () => T): T | undefined {
  if (outcome === 'gone') throw new NotFoundError(`Project ${projectId} was not found`);
  return outcome === 'written' ? value() : undefined;
}

/** Production variables are an admin's to write; a developer writes preview and development ones. */
function mayWriteTargets(caller: Caller, targets: readonly EnvironmentTarget[]): void {
  if (!targets.includes('production')) return;
  authorize(caller, 'variables.write_production');
  mayTarget(caller, 'production', 'write production variables');
}

export async function createVariable(
  caller: Caller,
  projectId: string,
  input: CreateVariableInput,
): Promise<EnvironmentVariable> {
  const project = await getProject(caller, projectId);
  const id = newId('env');
  const type = input.type ?? 'plain';
  const targets = canonicalTargets(input.targets ?? ENVIRONMENT_TARGETS);
  mayWriteTargets(caller, targets);
  // Sealed while the set is read; a refusal before it is awaited must not leave its failure unhandled.
  const sealing = seal(input.value, contextOf(project.id, id, type));
  sealing.catch(() => undefined);
  return serially(project.id, async (head, current) => {
    // Its id is new: found, it is this request's own write, applied though its answer was lost.
    const mine = current.find((variable) => variable.id === id);
    if (mine) return shown(project.id, mine, input.value);
    if (current.length >= MAX_VARIABLES_PER_PROJECT) {
      throw new ConflictError(
        `Project ${project.id} already has ${MAX_VARIABLES_PER_PROJECT} variables, its limit`,
      );
    }
    const overlap = firstOverlap({ key: input.key, targets }, current);
    if (overlap) throw overlap;
    const now = isoNow();
    const variable = {
      id,
      key: input.key,
      targets,
      type,
      sealed: await sealing,
      createdAt: now,
      updatedAt: now,
    };
    const written = await store.applyChange(
      project.id,
      caller.team.partition,
      head,
      {
        version: head?.version ?? newId('evs'),
        count: current.length + 1,
        change: { change: 'created', variables: [{ key: input.key, targets, type }], at: now },
      },
      { put: variable },
    );
    return settled(project.id, written, () => shown(project.id, variable, input.value));
  });
}

export async function updateVariable(
  caller: Caller,
  projectId: string,
  envId: string,
  input: UpdateVariableInput,
): Promise<EnvironmentVariable> {
  const project = await getProject(caller, projectId);
  if (!isVariableId(envId)) throw variableNotFound(envId);
  return serially(project.id, async (head, current) => {
    const existing = current.find((variable) => variable.id === envId);
    if (!head || !existing) throw variableNotFound(envId);
    const targets = input.targets === undefined ? existing.targets : canonicalTargets(input.targets);
    mayWriteTargets(caller, [...existing.targets, ...targets]);
    const overlap = firstOverlap({ id: existing.id, key: existing.key, targets }, current);
    if (overlap) throw overlap;
    const context = contextOf(project.id, existing.id, existing.type);
    const sealed =
      input.value === undefined
        ? (await store.findVariable(project.id, head.version, envId))?.sealed
        : await seal(input.value, context);
    if (sealed === undefined) return undefined; // deleted since the set was read: read it again
    const now = isoNow();
    const variable = { ...existing, targets, sealed, updatedAt: now };
    const written = await store.applyChange(
      project.id,
      caller.team.partition,
      head,
      {
        version: head.version,
        count: current.length,
        change: {
          change: 'updated',
          variables: [{ key: existing.key, targets, type: existing.type }],
          at: now,
        },
      },
      { update: variable },
    );
    // A write applied whose answer was lost is made again on the set it changed: the same values.
    return settled(project.id, written, () => shown(project.id, variable, input.value));
  });
}

export async function deleteVariable(caller: Caller, projectId: string, envId: string): Promise<void> {
  const project = await getProject(caller, projectId);
  if (!isVariableId(envId)) throw variableNotFound(envId);
  let tried = false;
  await serially(project.id, async (head, current) => {
    const existing = current.find((variable) => variable.id === envId);
    // Gone after this request's own write was refused: that write was applied (its answer lost), or
    // another delete got there first; either way it is deleted, as asked.
    if (!existing && tried) return true;
    if (!head || !existing) throw variableNotFound(envId);
    mayWriteTargets(caller, existing.targets);
    const now = isoNow();
    const written = await store.applyChange(
      project.id,
      caller.team.partition,
      head,
      {
        version: head.version,
        count: current.length - 1,
        change: {
          change: 'deleted',
          variables: [{ key: existing.key, targets: existing.targets, type: existing.type }],
          at: now,
        },
      },
      { delete: envId },
    );
    tried = true;
    return settled(project.id, written, () => true);
  });
}

/**
 * Replaces the whole set at once: the new variables are written under a new version, which one
 * conditional write of the head makes current; the old version is deleted after. Any failure
 * before that write leaves the old set as it was.
 */
export async function replaceEnvironment(
  caller: Caller,
  projectId: string,
  input: ReplaceEnvironmentInput,
): Promise<EnvironmentVariable[]> {
  const project = await getProject(caller, projectId);
  const wanted = input.variables.map((variable) => ({
    id: newId('env'),
    key: variable.key,
    value: variable.value,
    type: variable.type ?? 'plain',
    targets: canonicalTargets(variable.targets ?? ENVIRONMENT_TARGETS),
  }));
  mayWriteTargets(
    caller,
    wanted.flatMap((variable) => variable.targets),
  );
  wanted.forEach((variable, index) => {
    for (const earlier of wanted.slice(0, index)) {
      const target = overlapOf(variable, earlier);
      if (target) throw new ConflictError(`Variable ${variable.key} is given twice for target ${target}`);
    }
  });
  const now = isoNow();
  const version = newId('evs');
  const staged = await mapLimited(wanted, SEALING_CONCURRENCY, async ({ value, ...variable }) => ({
    ...variable,
    sealed: await seal(value, contextOf(project.id, variable.id, variable.type)),
    createdAt: now,
    updatedAt: now,
  }));
  await store.stageVersion(project.id, version, staged);
  const change = {
    change: 'replaced' as const,
    variables: staged.map(({ key, targets, type }) => ({ key, targets, type })),
    at: now,
  };
  // The set this request's switch replaced, once a switch was tried: what to delete after it.
  let replaced: { head: store.Head; current: store.StoredVariable[] } | undefined;
  try {
    await serially(project.id, async (head, current) => {
      // The head names this version already: the switch tried last was applied, its answer lost.
      if (head?.version !== version) {
        // What it replaces counts too: a set with production variables is an admin's to replace.
        mayWriteTargets(
          caller,
          current.flatMap((variable) => variable.targets),
        );
        const switched = await store.switchVersion(project.id, caller.team.partition, head, {
          version,
          count: staged.length,
          change,
        });
        replaced = head ? { head, current } : undefined;
        if (settled(project.id, switched, () => true) === undefined) return undefined;
      }
      if (replaced) {
        const { head: old, current: oldVariables } = replaced;
        await store
          .dropVersion(
            project.id,
            old.version,
            oldVariables.map((variable) => variable.id),
          )
          .catch((error: unknown) =>
            logError('environment: old version left behind', { projectId: project.id }, error),
          );
      }
      return true;
    });
  } catch (error) {
    await store
      .dropVersion(
        project.id,
        version,
        staged.map((variable) => variable.id),
      )
      .catch(() => undefined);
    throw error;
  }
  const values = new Map(wanted.map((variable) => [variable.id, variable.value]));
  return Promise.all(
    [...staged].reverse().map((variable) => shown(project.id, variable, values.get(variable.id))),
  );
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
 * before the deployment is stored (shared/domain/deployments.ts decides the target).
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
 * building (409 after), and recorded in its history first (a refused read is not).
 */
export async function readBuildEnvironment(caller: Caller, deploymentId: string): Promise<BuildEnvironment> {
  const notFound = () => new NotFoundError(`Deployment ${deploymentId} was not found`);
  if (!isDeploymentId(deploymentId)) throw notFound();
  await mustReachDeployment(caller, deploymentId, { doing: 'read its build environment' });
  const read = await recordBuildEnvRead(caller.team.partition, deploymentId, {
    keyId: caller.keyId,
    at: isoNow(),
  });
  if (read.outcome === 'missing') throw notFound();
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
