import { isDeepStrictEqual } from 'node:util';
import { asSystemChange } from '#shared/db/audit/system-changes.ts';
import { afterLostRace } from '#shared/db/conditional.ts';
import { findDeployment } from '#shared/db/deployments/deployments.ts';
import type { Page } from '#shared/db/pages.ts';
import * as store from '#shared/db/production.ts';
import type { Project } from '#shared/db/projects.ts';
import { mustReachProject, mustTarget } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { movesForward, type ProductionReason } from '#shared/model/production.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type { PromoteInput, RollbackInput } from '#shared/schemas/production.ts';
import { recordChange } from './audit.ts';

// What moves a project's production pointer, and what does not:
// - automatic: a `production` deployment that becomes ready, if it was created after the one in
//   production (ids sort by creation) and automatic promotion is on;
// - promote: any ready deployment of the project, by hand; it turns automatic promotion on again;
// - rollback: a ready deployment that was production before (by default the one before the current
//   on the way forward, so repeated rollbacks walk further back); it turns automatic promotion off.
// Each move is decided on the pointer just read and written on the condition that it is still that
// pointer (shared/db/production.ts); when another move got there first, it is read and decided again.
// A move whose write was applied but whose answer was lost (its retry then fails the condition
// against its own write) finds, read again, exactly the pointer it wrote: that move is done.

/** Moves decided again after losing a race, before giving up (only a burst of moves on one project). */
const ATTEMPTS = 5;

const projectNotFound = (id: string) => new NotFoundError(`Project ${id} was not found`);
const deploymentNotFound = (id: string) => new NotFoundError(`Deployment ${id} was not found`);

async function stateOf(ownerId: string, projectId: string): Promise<store.ProductionState> {
  const state = isIdOf('prj', projectId) ? await store.readProductionState(ownerId, projectId) : undefined;
  if (!state) throw projectNotFound(projectId);
  return state;
}

/**
 * One of the owner's deployments of this project, ready; 404 or 409 naming its status otherwise.
 * Read consistently: promoting a deployment the moment its build reported ready must not be a 409.
 */
async function readyDeployment(ownerId: string, projectId: string, deploymentId: string) {
  const deployment = isIdOf('dpl', deploymentId)
    ? await findDeployment(ownerId, deploymentId, { consistent: true })
    : undefined;
  if (!deployment || deployment.projectId !== projectId) throw deploymentNotFound(deploymentId);
  if (deployment.status !== 'ready') {
    throw new ConflictError(
      `Deployment ${deploymentId} is ${deployment.status}; only a ready deployment can be production`,
    );
  }
  return deployment;
}

const pointerTo = (
  deployment: { id: string; url?: string },
  reason: ProductionReason,
  rollbackTo: string | null,
): store.StoredPointer => ({
  deploymentId: deployment.id,
  url: deployment.url ?? null,
  promotedAt: isoNow(),
  reason,
  rollbackTo,
});

/** The project as it is after a move (the move's write returns nothing). */
const withPointer = (project: Project, pointer: store.StoredPointer): Project => {
  const { rollbackTo: _chain, ...shown } = pointer;
  return { ...project, production: shown, autoPromotion: movesForward(pointer.reason) };
};

/** Whether the pointer read is the one a move of this request wrote (its time makes it unique). */
const isOwnMove = (pointer: store.StoredPointer | undefined, tried: store.StoredPointer): boolean =>
  isDeepStrictEqual(pointer, tried);

const raced = (projectId: string) =>
  new ConflictError(`Production of project ${projectId} kept changing meanwhile; try again`);

/**
 * Called when one of the owner's deployments became ready: makes it production if its target is
 * production, automatic promotion is on, and it is newer than the deployment in production. Whether
 * it did. `promotesOver`, the production it was created over (shared/db/deployments/writes.ts), is
 * tried first without reading the project: the move's condition (that pointer, automatic promotion
 * on) decides, as it would after a read; when it fails, the project is read and the move decided.
 */
/** An automatic promotion: the platform's move, in the project's team's audit log. */
const automaticMove = (move: Parameters<typeof store.moveProduction>[0]) =>
  asSystemChange('production.promoted', move.ownerId, () => store.moveProduction(move));

export async function promoteIfNewer(
  ownerId: string,
  deployment: { id: string; projectId: string; target: string; url?: string },
  promotesOver?: string | null,
): Promise<boolean> {
  if (deployment.target !== 'production') return false;
  let tried: store.StoredPointer | undefined;
  // Ids sort by creation time: only an older deployment is replaced.
  if (promotesOver !== undefined && (promotesOver === null || promotesOver < deployment.id)) {
    tried = pointerTo(deployment, 'auto', promotesOver);
    const moved = await automaticMove({
      ownerId,
      projectId: deployment.projectId,
      from: promotesOver,
      to: tried,
      keyId: null,
    });
    if (moved) return true;
  }
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await afterLostRace(attempt - 1);
    const state = await store.readProductionState(ownerId, deployment.projectId);
    if (tried && isOwnMove(state?.pointer, tried)) return true;
    if (!state?.project.autoPromotion) return false;
    const current = state.pointer?.deploymentId ?? null;
    // Ids sort by creation time: an older build that finishes late never replaces a newer one.
    if (current !== null && current >= deployment.id) return false;
    tried = pointerTo(deployment, 'auto', current);
    const moved = await automaticMove({
      ownerId,
      projectId: deployment.projectId,
      from: current,
      to: tried,
      keyId: null,
    });
    if (moved) return true;
  }
  return false;
}

/** Makes a ready deployment of the caller's project production, and turns automatic promotion on. */
export async function promote(caller: Caller, projectId: string, input: PromoteInput): Promise<Project> {
  mustReachProject(caller, projectId);
  mustTarget(caller, 'production', 'promote');
  let state = await stateOf(caller.team.partition, projectId);
  // Read once: `ready` is terminal, so only the pointer can change between attempts.
  const deployment = await readyDeployment(caller.team.partition, state.project.id, input.deploymentId);
  let tried: store.StoredPointer | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) {
      await afterLostRace(attempt - 1);
      state = await stateOf(caller.team.partition, projectId);
    }
    const { project, pointer } = state;
    if (tried && isOwnMove(pointer, tried)) return withPointer(project, tried);
    const current = pointer?.deploymentId ?? null;
    if (current === deployment.id) {
      // Already production: no move, no history entry; automatic promotion resumes all the same.
      // The request is still the team's change, recorded though nothing is written.
      if (project.autoPromotion) {
        await recordChange({ type: 'project', id: project.id });
        return project;
      }
      return (await store.resumeAutoPromotion(caller.team.partition, project.id)) ?? throwNotFound(projectId);
    }
    const to = pointerTo(deployment, 'promote', current);
    tried = to;
    const moved = await store.moveProduction({
      ownerId: caller.team.partition,
      projectId: project.id,
      from: current,
      to,
      keyId: caller.keyId,
    });
    if (moved) return withPointer(project, to);
  }
  throw raced(projectId);
}

/**
 * Puts an earlier production deployment of the caller's project back: the named one, or the one before
 * the current on the way forward. Pauses automatic promotion until the next promote.
 */
export async function rollback(caller: Caller, projectId: string, input: RollbackInput): Promise<Project> {
  mustReachProject(caller, projectId);
  mustTarget(caller, 'production', 'roll back');
  let tried: store.StoredPointer | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await afterLostRace(attempt - 1);
    const { project, pointer } = await stateOf(caller.team.partition, projectId);
    if (tried && isOwnMove(pointer, tried)) return withPointer(project, tried);
    const current = pointer?.deploymentId ?? null;
    const targetId = input.deploymentId ?? pointer?.rollbackTo ?? null;
    if (targetId === null) {
      throw new ConflictError(`Project ${projectId} has no earlier production deployment to roll back to`);
    }
    const deployment = await readyDeployment(caller.team.partition, project.id, targetId);
    if (deployment.id === current) {
      throw new ConflictError(`Deployment ${deployment.id} is already production`);
    }
    const promotion = await store.findPromotion(project.id, deployment.id);
    if (!promotion) {
      throw new ConflictError(`Deployment ${deployment.id} was never production; promote it instead`);
    }
    // Where the next default rollback goes: on from where this deployment's own forward move came.
    const to = pointerTo(deployment, 'rollback', promotion.rollbackTo);
    tried = to;
    const moved = await store.moveProduction({
      ownerId: caller.team.partition,
      projectId: project.id,
      from: current,
      to,
      keyId: caller.keyId,
    });
    if (moved) return withPointer(project, to);
  }
  throw raced(projectId);
}

function throwNotFound(projectId: string): never {
  throw projectNotFound(projectId);
}

/** A page of the caller's project's production moves, newest first. */
export async function listProductionHistory(
  caller: Caller,
  projectId: string,
  page: PageRequest,
): Promise<Page<store.ProductionMoveEntry>> {
  mustReachProject(caller, projectId);
  const { project } = await stateOf(caller.team.partition, projectId);
  return store.listProductionMoves(project.id, page);
}
