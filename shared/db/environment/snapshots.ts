import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { forEachPage } from '#shared/db/pages.ts';
import { purgePartition } from '#shared/db/partition-purge.ts';
import { tableName } from '#shared/db/tables.ts';
import type { DeploymentTarget } from '#shared/model/deployments/target.ts';
import type { VariableType } from '#shared/model/environment-variables.ts';

// What a deployment builds with: the variables of its target when it was created, copied sealed
// (each value keeps the data key and context it was sealed with, so a snapshot costs no KMS call) into
// the project's partition of the environment table, under `snapshot#<deploymentId>#<part>`. Beside
// the project's variables rather than on the deployment item: the deployment item is copied into
// eight indexes and every stream record, and a snapshot can be larger than an item may be (100
// values of 16 KiB), so it is split into parts. It is written before the deployment, so no deployment
// exists without one; one left by a create that failed after it is never read, and goes with the
// project.

const table = (): string => tableName('environment');

/** A part stays well under DynamoDB's 400 KB per item. */
const PART_BYTES = 300_000;

export interface SnapshotVariable {
  id: string;
  key: string;
  type: VariableType;
  sealed: string;
}

export interface Snapshot {
  target: DeploymentTarget;
  variables: SnapshotVariable[];
}

const prefix = (deploymentId: string): string => `snapshot#${deploymentId}#`;

/** Splits the variables into parts by size (each variable whole). */
function partsOf(variables: readonly SnapshotVariable[]): SnapshotVariable[][] {
  const parts: SnapshotVariable[][] = [[]];
  let size = 0;
  for (const variable of variables) {
    const bytes = variable.key.length + variable.sealed.length + variable.id.length + 32;
    const current = parts.at(-1) as SnapshotVariable[];
    if (size + bytes > PART_BYTES && current.length > 0) {
      parts.push([variable]);
      size = bytes;
    } else {
      current.push(variable);
      size += bytes;
    }
  }
  return parts;
}

/** Stores a deployment's snapshot: one PutItem, or one transaction when it takes several parts. */
export async function putSnapshot(
  projectId: string,
  deploymentId: string,
  snapshot: Snapshot,
): Promise<void> {
  const parts = partsOf(snapshot.variables);
  const items = parts.map((variables, index) => ({
    projectId,
    sk: `${prefix(deploymentId)}${String(index).padStart(3, '0')}`,
    deploymentId,
    target: snapshot.target,
    parts: parts.length,
    variables,
  }));
  const [only] = items;
  if (items.length === 1 && only) {
    await db.send(new PutCommand({ TableName: table(), Item: only }));
    return;
  }
  await db.send(
    new TransactWriteCommand({ TransactItems: items.map((Item) => ({ Put: { TableName: table(), Item } })) }),
  );
}

/** A deployment's snapshot (one Query), or undefined for a deployment made before snapshots. */
export async function readSnapshot(projectId: string, deploymentId: string): Promise<Snapshot | undefined> {
  const items: Record<string, unknown>[] = [];
  await forEachPage(
    {
      TableName: table(),
      KeyConditionExpression: 'projectId = :project AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':project': projectId, ':prefix': prefix(deploymentId) },
      ConsistentRead: true,
    },
    (page) => items.push(...page.items),
  );
  const [first] = items;
  if (!first) return undefined;
  return {
    target: first.target === 'production' ? 'production' : 'preview',
    variables: items.flatMap((item) =>
      Array.isArray(item.variables) ? (item.variables as SnapshotVariable[]) : [],
    ),
  };
}

/**
 * Deletes everything a project's partition holds (head, variables of every version, snapshots), a
 * page at a time, until none is left or `until` has passed; whether none is left. Idempotent: the
 * project's DELETE runs it, and the purge consumer of the project's removal again.
 */
export const purgeEnvironment = (projectId: string, until: number): Promise<boolean> =>
  purgePartition(table(), 'projectId', projectId, until);
