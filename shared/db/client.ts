import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// One client per container, created at load time, outside any handler. DYNAMODB_ENDPOINT is read
// here and nowhere else: set, it points every call at DynamoDB Local (or another endpoint).

const endpoint = process.env.DYNAMODB_ENDPOINT;

const client = new DynamoDBClient({
  ...(endpoint
    ? {
        endpoint,
        region: process.env.AWS_REGION ?? 'local',
        // DynamoDB Local keeps one database per access key and region; every local client uses these.
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {}),
  // A store that does not answer must fail fast (a 500, or /health's 503), not hang on retries.
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
});

/** The shared document client: plain JavaScript values in and out, empty values left out. */
export const db = DynamoDBDocumentClient.from(client, {
  marshallOptions: { removeUndefinedValues: true },
});
