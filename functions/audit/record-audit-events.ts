import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { recordFromStream } from '#shared/domain/audit.ts';
import { logError } from '#shared/runtime/log.ts';

// A consumer of every stream whose items a team's change writes, fed only the records whose write
// carried an audit stamp (its row's filter, shared/consumers.ts): each is one event of the team's
// audit log (shared/domain/audit.ts), with what the write changed. Idempotent: the event's id is
// the stamp's, and a record handed over twice is recorded once. A failure names the first record
// not done: it and the ones after it come back (retries, then the stream-failures queue and its
// alarm), so a change that happened is never missing from the log.

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    try {
      await recordFromStream(record);
    } catch (error) {
      logError('audit: an event could not be recorded; the stream hands it over again', {}, error);
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
