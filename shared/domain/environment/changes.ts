import * as store from '#shared/db/environment/variables.ts';
import type * as versions from '#shared/db/environment/versions.ts';
import { getProject, mayReachProject } from '#shared/domain/projects.ts';
import { authorize } from '#shared/domain/teams/access.ts';
import { mustTarget } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import type { EnvironmentTarget } from '#shared/model/environment-variables.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { ATTEMPTS } from './variables.ts';

// How every change to a project's variables is made (environment-writes.ts, environment-replace.ts):
// against the set as it is now, conditional on its revision as read, and again on the newer one
// when another change got there first.

const projectNotFound = (projectId: string) => new NotFoundError(`Project ${projectId} was not found`);
const changedMeanwhile = () =>
  new ConflictError("The project's variables kept changing while this request ran; try again");

/**
 * Work that needs only the path's project id (the set's head, a new value's data key), started
 * while the project is read, so that its round trip overlaps that read's instead of following it.
 * Nothing starts for an id the caller may not name: that is the 404 the project's read would give.
 * What started for a project then not found is dropped, its failure handled.
 */
export function besideProjectRead<T>(caller: Caller, projectId: string, work: () => Promise<T>): Promise<T> {
  if (!mayReachProject(caller, projectId)) throw projectNotFound(projectId);
  const started = work();
  started.catch(() => undefined);
  return started;
}

/**
 * Runs a change against the project's set as it is now, again when the set moved first; `attempt`
 * gets the head and the variables (without values) and returns what it did, or undefined to be run
 * again. The set may also have "moved" by the attempt's own write, applied but its answer lost and
 * the retry judged afresh: each change recognizes its own write in what it reads again. `firstHead`:
 * the head as read beside the project (besideProjectRead), for the first attempt.
 */
export async function serially<T>(
  projectId: string,
  attempt: (head: store.Head | undefined, current: store.StoredVariable[]) => Promise<T | undefined>,
  firstHead?: Promise<store.Head | undefined>,
): Promise<T> {
  for (let tries = 1; tries <= ATTEMPTS; tries++) {
    const head = await (tries === 1 && firstHead ? firstHead : store.readHead(projectId));
    const current = head ? await store.allVariables(projectId, head.version, { sealed: false }) : [];
    const done = await attempt(head, current);
    if (done !== undefined) return done;
  }
  throw changedMeanwhile();
}

/**
 * A change to the set of the caller's project: the project is read (its 404) with the set's head
 * read beside it for the first attempt, then `serially`. The single-variable writes go this way; a
 * replacement stages its new version first and then runs `serially` itself.
 */
export async function changeSet<T>(
  caller: Caller,
  projectId: string,
  attempt: (head: store.Head | undefined, current: store.StoredVariable[]) => Promise<T | undefined>,
): Promise<T> {
  const firstHead = besideProjectRead(caller, projectId, () => store.readHead(projectId));
  const project = await getProject(caller, projectId);
  return serially(project.id, attempt, firstHead);
}

/** What a write of the head means to `serially`: the value, read again (undefined), or 404. */
export function settled<T>(
  projectId: string,
  outcome: versions.HeadWriteOutcome,
  value: () => T,
): T | undefined {
  if (outcome === 'gone') throw projectNotFound(projectId);
  return outcome === 'written' ? value() : undefined;
}

/** Production variables are an admin's to write; a developer writes preview and development ones. */
export function mustWriteTargets(caller: Caller, targets: readonly EnvironmentTarget[]): void {
  if (!targets.includes('production')) return;
  authorize(caller, 'variables.write_production');
  mustTarget(caller, 'production', 'write production variables');
}
