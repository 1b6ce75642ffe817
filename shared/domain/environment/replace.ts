import type * as store from '#shared/db/environment/variables.ts';
import * as versions from '#shared/db/environment/versions.ts';
import { getProject } from '#shared/domain/projects.ts';
import type { Caller } from '#shared/model/caller.ts';
import { canonicalTargets, ENVIRONMENT_TARGETS, overlapOf } from '#shared/model/environment-variables.ts';
import { ConflictError } from '#shared/model/errors.ts';
import { newId } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import { mapLimited, seal } from '#shared/runtime/envelope.ts';
import { logError } from '#shared/runtime/log.ts';
import type { ReplaceEnvironmentInput } from '#shared/schemas/environment/environment.ts';
import { besideProjectRead, mustWriteTargets, serially, settled } from './changes.ts';
import { contextOf, type EnvironmentVariable, SEALING_CONCURRENCY, shown } from './variables.ts';

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
  const wanted = input.variables.map((variable) => ({
    id: newId('env'),
    key: variable.key,
    value: variable.value,
    type: variable.type ?? 'plain',
    targets: canonicalTargets(variable.targets ?? ENVIRONMENT_TARGETS),
  }));
  mustWriteTargets(
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
  // Sealed while the project is read: the contexts need only the path's project id.
  const sealing = besideProjectRead(caller, projectId, () =>
    mapLimited(wanted, SEALING_CONCURRENCY, async ({ value, ...variable }) => ({
      ...variable,
      sealed: await seal(value, contextOf(projectId, variable.id, variable.type)),
      createdAt: now,
      updatedAt: now,
    })),
  );
  const project = await getProject(caller, projectId);
  const staged = await sealing;
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
        mustWriteTargets(
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
