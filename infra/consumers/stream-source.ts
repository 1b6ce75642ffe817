import type { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, type SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { FilterPattern } from '#shared/consumers.ts';
import { STREAM_RECORD_MAX_AGE } from './stream-failures.ts';

// How every stream consumer of the stack reads a table's stream: from the time it is deployed, only
// the records its row's filter names (shared/consumers.ts; the others invoke nothing and cost
// nothing). A batch it could not finish comes back from the record it named as failed, and a batch
// that fails as a whole is halved until the failing record is alone; retried `retryAttempts` times
// within half a day, then handed to the stream-failures queue while the stream still holds it.

export interface StreamSourceOptions {
  batchSize: number;
  retryAttempts: number;
  /** Where a batch it gave up on goes (infra/consumers/stream-failures.ts). */
  onFailure: SqsDlq;
  filter?: FilterPattern | undefined;
  /** How long to gather records into a batch before invoking, when not at once. */
  maxBatchingWindow?: Duration;
}

export function streamSource(table: ITable, options: StreamSourceOptions): DynamoEventSource {
  const { filter, ...rest } = options;
  return new DynamoEventSource(table, {
    startingPosition: StartingPosition.LATEST,
    ...rest,
    ...(filter ? { filters: [FilterCriteria.filter(filter)] } : {}),
    reportBatchItemFailures: true,
    bisectBatchOnError: true,
    maxRecordAge: STREAM_RECORD_MAX_AGE,
  });
}
