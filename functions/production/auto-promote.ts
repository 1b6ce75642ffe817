import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { toDeployment } from '#shared/db/deployments/deployments.ts';
import { promoteIfNewer } from '#shared/domain/production.ts';
import { logError } from '#shared/runtime/log.ts';

// A consumer of the deployments table's stream, fed only the changes that made a production
// deployment ready (its row's filter, shared/consumers.ts): each may become production
// (shared/domain/production.ts). The report that made it ready tries first, so production usually
// moved before this runs and it only finds that out (one read); it is what makes the move happen
// when that report's attempt failed or its request died halfway. Idempotent: a record handed over
// twice, or a move already made, moves nothing. A failure names the first record not done: it and
// the ones after it come back (retries, then the stream-failures queue and its alarm).

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (!image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    const deployment = toDeployment(item);
    if (deployment.status !== 'ready') continue;
    try {
      await promoteIfNewer(String(item.ownerId), deployment);
    } catch (error) {
      logError(
        'automatic promotion failed; the stream hands it over again',
        { deploymentId: deployment.id },
        error,
      );
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
