import * as snapshots from '#shared/db/env-snapshots.ts';
import * as store from '#shared/db/environment-variables.ts';
import { mapLimited, unseal } from '#shared/runtime/envelope.ts';
import { contextOf } from './environment.ts';

// The secret values a deployment's log lines are masked with: those of its snapshot (what it builds
// with) and the project's current secrets (a build may print one set after it was created). Opening
// a sealed value costs a KMS call in AWS, and a build appends many times with the same secrets, so
// what was opened is kept per container, keyed by the sealed text: a changed secret is a new sealed
// text (a fresh data key each time), so the cache never answers with an old value. It lives only in
// the memory of the function that masks (the one with `kms: ['decrypt']`), never in a store.

const OPENED_LIMIT = 500;
/** KMS calls at once (as the build's read of its environment makes them). */
const KMS_CONCURRENCY = 10;
const opened = new Map<string, string>();

async function open(projectId: string, variableId: string, sealed: string): Promise<string> {
  const known = opened.get(sealed);
  if (known !== undefined) return known;
  const value = await unseal(sealed, contextOf(projectId, variableId, 'secret'));
  if (opened.size >= OPENED_LIMIT) opened.delete(opened.keys().next().value ?? '');
  opened.set(sealed, value);
  return value;
}

async function currentSecrets(projectId: string): Promise<{ id: string; sealed: string }[]> {
  const head = await store.readHead(projectId);
  if (!head) return [];
  const variables = await store.allVariables(projectId, head.version, { sealed: true });
  return variables.flatMap((variable) =>
    variable.type === 'secret' && variable.sealed ? [{ id: variable.id, sealed: variable.sealed }] : [],
  );
}

/** Every secret value the deployment's log must not show. */
export async function secretValuesOf(projectId: string, deploymentId: string): Promise<string[]> {
  const [snapshot, current] = await Promise.all([
    snapshots.readSnapshot(projectId, deploymentId),
    currentSecrets(projectId),
  ]);
  const sealed = [
    ...(snapshot?.variables ?? []).filter((variable) => variable.type === 'secret'),
    ...current,
  ];
  return mapLimited(sealed, KMS_CONCURRENCY, (variable) => open(projectId, variable.id, variable.sealed));
}
