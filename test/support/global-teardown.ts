import type { DynamoDbLocal } from '../../infra/local/dynamodb-local.ts';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoDbLocal?: DynamoDbLocal }).__dynamoDbLocal?.stop();
}
