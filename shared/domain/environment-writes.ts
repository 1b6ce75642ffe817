import * as store from '#shared/db/environment-variables.ts';
import * as versions from '#shared/db/environment-versions.ts';
import type { Caller } from '#shared/model/caller.ts';
import {
  canonicalTargets,
  ENVIRONMENT_TARGETS,
  type EnvironmentTarget,
  MAX_VARIABLES_PER_PROJECT,
  overlapOf,
} from '#shared/model/environment-variables.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf, newId } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import { mapLimited, seal } from '#shared/runtime/envelope.ts';
import { logError } from '#shared/runtime/log.ts';
import type {
  CreateVariableInput,
  ReplaceEnvironmentInput,
  UpdateVariableInput,
} from '#shared/schemas/environment.ts';
import { ATTEMPTS, contextOf, type EnvironmentVariable, SEALING_CONCURRENCY, shown } from './environment.ts';
import { getProject } from './projects.ts';
import { authorize } from './team-access.ts';
import { mayTarget } from './token-reach.ts';

// Changes to a project's environment variables: each is conditional on the set's revision as read,
// and tried again on the newer one when another change got there first (reads, snapshots and the
// build's read: environment.ts). Production variables are an admin's to write.

const isVariableId = (id: string): boolean => isIdOf('env', id);
const variableNotFound = (id: string) => new NotFoundError(`Variable ${id} was not found`);
const changedMeanwhile = () =>
  new ConflictError("The project's variables kept changing while this request ran; try again");

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
function settled<T>(projectId: string, outcome: versions.HeadWriteOutcome, value: () => T): T | undefined {
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
    const written = await versions.applyChange(
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
    const written = await versions.applyChange(
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
    const written = await versions.applyChange(
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
  await versions.stageVersion(project.id, version, staged);
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
        const switched = await versions.switchVersion(project.id, caller.team.partition, head, {
          version,
          count: staged.length,
          change,
        });
        replaced = head ? { head, current } : undefined;
        if (settled(project.id, switched, () => true) === undefined) return undefined;
      }
      if (replaced) {
        const { head: old, current: oldVariables } = replaced;
        await versions
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
    await versions
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
