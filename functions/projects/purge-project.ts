import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { purgeProjectDomains } from '#shared/db/custom-domains/domains.ts';
import { purgeProjectDeployments } from '#shared/db/deployments/writes.ts';
import { purgeEnvironment } from '#shared/db/environment/snapshots.ts';
import { clock } from '#shared/runtime/clock.ts';

// A consumer of the projects table's stream: when a project is removed, its deployments (with their
// build logs), its environment variables (and the deployments' snapshots of them) and its custom
// domains go too. The DELETE request removes what it can in a second; this finishes the rest (and
// alone frees the domains' names). Idempotent, so a
// record handed over twice, or retried after a timeout, only finishes the work.

/** How long one invocation purges before it hands the record back to be retried (the function has 30 s). */
const PURGE_BUDGET_MS = 20_000;

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
  const until = clock.now() + PURGE_BUDGET_MS;
  for (const record of event.Records) {
    const removed = record.eventName === 'REMOVE' ? record.dynamodb?.OldImage : undefined;
    if (!removed) continue;
    const { id } = unmarshall(removed as Record<string, AttributeValue>);
    const done =
      typeof id === 'string' &&
      (await Promise.all([
        purgeProjectDeployments(id, until),
        purgeEnvironment(id, until),
        purgeProjectDomains(id, until),
      ]).then(
        (finished) => finished.every(Boolean),
        () => false,
      ));
    // Not finished (time, or the store failed): this record and the ones after it come back.
    if (!done && typeof id === 'string') {
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
      break;
    }
  }
  return { batchItemFailures };
}
