import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// The DynamoDB clients, one set per container, created at load time, outside any handler.
// DYNAMODB_ENDPOINT is read here and nowhere else: set, it points every call at DynamoDB Local.

const endpoint = process.env.DYNAMODB_ENDPOINT;

function documentClient(maxAttempts: number): DynamoDBDocumentClient {
  const config: DynamoDBClientConfig = {
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'local',
          // DynamoDB Local keeps one database per access key and region; every local client uses these.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts,
    // A store that does not answer must fail fast (a 500, or /health's 503), well inside the
    // function's 10 s: a request makes at most a handful of sequential calls.
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_500 },
  };
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** For reads and for writes that are safe to repeat: one retry on a transient failure. */
export const db = documentClient(2);

/**
 * For the rate counters: no retry. A counting write whose response was lost may still have been
 * applied, and repeating it would count one request twice; the request fails instead (a 500 that
 * still carries the rate-limit headers) and the client decides whether to try again.
 */
export const countingDb = documentClient(1);
