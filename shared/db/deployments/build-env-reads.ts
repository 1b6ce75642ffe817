import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { tableName } from '#shared/db/tables.ts';
import type { DeploymentState } from '#shared/model/deployments/states.ts';
import { MAX_BUILD_ENV_READS } from '#shared/model/environment-variables.ts';

// A read of a deployment's build environment joins its history (the `events` list of the deployment
// item, which GET /deployments/{id}/events shows) as `{type: "build-env-read", keyId, at}`. One
// conditional UpdateItem, owner-scoped by its key: it records the read only while the deployment is
// queued or building, and its answer gives what the read needs next (the project). The status and
// the list keys are left alone, so no index is rewritten and no webhook event is made. `buildEnvReads`
// counts them, and the same condition stops at MAX_BUILD_ENV_READS: the history, and the item, stay
// bounded whatever a build key does.

const READABLE: readonly DeploymentState[] = ['queued', 'building'];

export type BuildEnvReadResult =
  | { outcome: 'recorded'; projectId: string; branch: string; target?: string }
  | { outcome: 'refused'; status: string }
  /** A production deployment's (or one of no recorded target), to a reader of previews only. */
  | { outcome: 'production' }
  /** Read MAX_BUILD_ENV_READS times already. */
  | { outcome: 'exhausted' }
  | { outcome: 'missing' };

export async function recordBuildEnvRead(
  ownerId: string,
  deploymentId: string,
  read: {
    keyId: string;
    at: string /** Only a deployment whose recorded target is not production. */;
    previewsOnly: boolean;
  },
): Promise<BuildEnvReadResult> {
  // Decided in the same condition as the read's record: a refused read is not recorded.
  const notProduction = read.previewsOnly ? ' AND attribute_exists(#target) AND #target <> :production' : '';
  const update = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: tableName('deployments'),
        Key: { ownerId, id: deploymentId },
        UpdateExpression: 'SET #events = list_append(if_not_exists(#events, :none), :read) ADD #reads :one',
        ConditionExpression: `#status IN (${READABLE.map((_, index) => `:readable${index}`).join(', ')}) AND (attribute_not_exists(#reads) OR #reads < :cap)${notProduction}`,
        ExpressionAttributeNames: {
          '#events': 'events',
          '#status': 'status',
          '#reads': 'buildEnvReads',
          ...(read.previewsOnly ? { '#target': 'target' } : {}),
        },
        ExpressionAttributeValues: {
          ...(read.previewsOnly ? { ':production': 'production' } : {}),
          ':none': [],
          ':one': 1,
          ':cap': MAX_BUILD_ENV_READS,
          ':read': [{ type: 'build-env-read', keyId: read.keyId, at: read.at }],
          ...Object.fromEntries(READABLE.map((status, index) => [`:readable${index}`, status])),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (!update.failed) {
    const item = update.result.Attributes ?? {};
    return {
      outcome: 'recorded',
      projectId: String(item.projectId),
      branch: String(item.branch),
      ...(typeof item.target === 'string' ? { target: item.target } : {}),
    };
  }
  const old = update.old;
  if (!old) return { outcome: 'missing' };
  if (!(READABLE as readonly unknown[]).includes(old.status))
    return { outcome: 'refused', status: String(old.status) };
  if (read.previewsOnly && (typeof old.target !== 'string' || old.target === 'production'))
    return { outcome: 'production' };
  return { outcome: 'exhausted' };
}
