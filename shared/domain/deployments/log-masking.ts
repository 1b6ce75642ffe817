import * as snapshots from '#shared/db/environment/snapshots.ts';
import * as store from '#shared/db/environment/variables.ts';
import { contextOf } from '#shared/domain/environment/variables.ts';
import { MIN_MASKED_LENGTH } from '#shared/model/deployments/logs.ts';
import { mapLimited, unseal } from '#shared/runtime/envelope.ts';

// The secret values a deployment's log lines are masked with: those of its snapshot (what it builds
// with) and the project's current secrets (a build may print one set after it was created).
//
// A build appends many times with the same secrets, so each container keeps, bounded:
// - what it has opened, keyed by the sealed text (opening costs a KMS call in AWS). A changed secret
//   is a new sealed text (a fresh data key each time), so an old value is never answered;
// - each deployment's snapshot secrets (a snapshot is written before its deployment and never
//   changes);
// - each project's current secrets by the set's version and revision (every change bumps the
//   revision), so an append reads only the set's head, one GetItem, unless the set changed.
// Values live only in the memory of the function that masks (the one with `kms: ['decrypt']`).
//
// A value that spans lines (a PEM key, a JSON credential) is masked whole, and each of its lines of
// MIN_MASKED_LENGTH characters or more on its own, as GitHub Actions masks multi-line secrets: a
// build prints such a value line by line as often as whole, and a log line holding one line of it
// would give that part away.

/** KMS calls at once (as the build's read of its environment makes them). */
const KMS_CONCURRENCY = 10;

interface Sealed {
  id: string;
  sealed: string;
}

/** A map that forgets its oldest entry past `limit`: a container's caches stay small. */
function bounded<K, V>(limit: number) {
  const entries = new Map<K, V>();
  return {
    get: (key: K) => entries.get(key),
    set(key: K, value: V) {
      if (entries.size >= limit) entries.delete(entries.keys().next().value as K);
      entries.set(key, value);
    },
  };
}

const opened = bounded<string, string>(500);
const snapshotSecrets = bounded<string, Sealed[]>(100);
const currentByRevision = bounded<string, Sealed[]>(100);

const secretsOf = (variables: readonly { id: string; type: string; sealed?: string }[]): Sealed[] =>
  variables.flatMap((variable) =>
    variable.type === 'secret' && variable.sealed ? [{ id: variable.id, sealed: variable.sealed }] : [],
  );

async function open(projectId: string, variable: Sealed): Promise<string> {
  const known = opened.get(variable.sealed);
  if (known !== undefined) return known;
  const value = await unseal(variable.sealed, contextOf(projectId, variable.id, 'secret'));
  opened.set(variable.sealed, value);
  return value;
}

async function ofSnapshot(projectId: string, deploymentId: string): Promise<Sealed[]> {
  const known = snapshotSecrets.get(deploymentId);
  if (known) return known;
  const snapshot = await snapshots.readSnapshot(projectId, deploymentId);
  const secrets = secretsOf(snapshot?.variables ?? []);
  // Kept either way: a snapshot is written before its deployment, so a deployment that exists
  // without one (its target had no variables) never gets one.
  snapshotSecrets.set(deploymentId, secrets);
  return secrets;
}

async function current(projectId: string): Promise<Sealed[]> {
  const head = await store.readHead(projectId);
  if (!head) return [];
  const key = `${projectId}:${head.version}:${head.revision}`;
  const known = currentByRevision.get(key);
  if (known) return known;
  const variables = await store.allVariables(projectId, head.version, { sealed: true });
  const secrets = secretsOf(variables);
  // A replace that deleted this version meanwhile leaves fewer than the head counts: used, not kept.
  if (variables.length === head.count) currentByRevision.set(key, secrets);
  return secrets;
}

/** A secret value, and each line of it long enough to mask when it spans several. */
export const maskedPartsOf = (value: string): string[] => {
  const lines = value.split(/\r\n|\r|\n/);
  if (lines.length === 1) return [value];
  return [value, ...lines.map((line) => line.trim()).filter((line) => line.length >= MIN_MASKED_LENGTH)];
};

/** Every secret value the deployment's log must not show, and every line of those that span lines. */
export async function secretValuesOf(projectId: string, deploymentId: string): Promise<string[]> {
  const [ofDeployment, now] = await Promise.all([ofSnapshot(projectId, deploymentId), current(projectId)]);
  const values = await mapLimited([...ofDeployment, ...now], KMS_CONCURRENCY, (variable) =>
    open(projectId, variable),
  );
  return values.flatMap(maskedPartsOf);
}
