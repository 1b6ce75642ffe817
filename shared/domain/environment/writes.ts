import * as store from '#shared/db/environment/variables.ts';
import * as versions from '#shared/db/environment/versions.ts';
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
import { seal } from '#shared/runtime/envelope.ts';
import type { CreateVariableInput, UpdateVariableInput } from '#shared/schemas/environment/environment.ts';
import { besideProjectRead, changeSet, mustWriteTargets, settled } from './changes.ts';
import { contextOf, type EnvironmentVariable, shown } from './variables.ts';

// Changes to one of a project's environment variables (the whole set at once:
// environment-replace.ts; reads, snapshots and the build's read: environment.ts). The set's head is
// read beside the project, and a new value sealed meanwhile: a write costs the project's read, not
// the project's read and then the others'.

const isVariableId = (id: string): boolean => isIdOf('env', id);
const variableNotFound = (id: string) => new NotFoundError(`Variable ${id} was not found`);

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

export async function createVariable(
  caller: Caller,
  projectId: string,
  input: CreateVariableInput,
): Promise<EnvironmentVariable> {
  const id = newId('env');
  const type = input.type ?? 'plain';
  const targets = canonicalTargets(input.targets ?? ENVIRONMENT_TARGETS);
  // Asked before anything starts: a refused production write costs no data key.
  mustWriteTargets(caller, targets);
  const sealing = besideProjectRead(caller, projectId, () =>
    seal(input.value, contextOf(projectId, id, type)),
  );
  return changeSet(caller, projectId, async (head, current) => {
    // Its id is new: found, it is this request's own write, applied though its answer was lost.
    const mine = current.find((variable) => variable.id === id);
    if (mine) return shown(projectId, mine, input.value);
    if (current.length >= MAX_VARIABLES_PER_PROJECT) {
      throw new ConflictError(
        `Project ${projectId} already has ${MAX_VARIABLES_PER_PROJECT} variables, its limit`,
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
      projectId,
      caller.team.partition,
      head,
      {
        version: head?.version ?? newId('evs'),
        count: current.length + 1,
        change: { change: 'created', variables: [{ key: input.key, targets, type }], at: now },
      },
      { put: variable },
    );
    return settled(projectId, written, () => shown(projectId, variable, input.value));
  });
}

export async function updateVariable(
  caller: Caller,
  projectId: string,
  envId: string,
  input: UpdateVariableInput,
): Promise<EnvironmentVariable> {
  return changeSet(caller, projectId, async (head, current) => {
    // After the project's 404: an unknown project is that, whatever the variable's id.
    if (!isVariableId(envId)) throw variableNotFound(envId);
    const existing = current.find((variable) => variable.id === envId);
    if (!head || !existing) throw variableNotFound(envId);
    const targets = input.targets === undefined ? existing.targets : canonicalTargets(input.targets);
    mustWriteTargets(caller, [...existing.targets, ...targets]);
    const overlap = firstOverlap({ id: existing.id, key: existing.key, targets }, current);
    if (overlap) throw overlap;
    const context = contextOf(projectId, existing.id, existing.type);
    const sealed =
      input.value === undefined
        ? (await store.findVariable(projectId, head.version, envId))?.sealed
        : await seal(input.value, context);
    if (sealed === undefined) return undefined; // deleted since the set was read: read it again
    const now = isoNow();
    const variable = { ...existing, targets, sealed, updatedAt: now };
    const written = await versions.applyChange(
      projectId,
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
    return settled(projectId, written, () => shown(projectId, variable, input.value));
  });
}

export async function deleteVariable(caller: Caller, projectId: string, envId: string): Promise<void> {
  let tried = false;
  await changeSet(caller, projectId, async (head, current) => {
    if (!isVariableId(envId)) throw variableNotFound(envId);
    const existing = current.find((variable) => variable.id === envId);
    // Gone after this request's own write was refused: that write was applied (its answer lost), or
    // another delete got there first; either way it is deleted, as asked.
    if (!existing && tried) return true;
    if (!head || !existing) throw variableNotFound(envId);
    mustWriteTargets(caller, existing.targets);
    const now = isoNow();
    const written = await versions.applyChange(
      projectId,
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
    return settled(projectId, written, () => true);
  });
}
