import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { tableName } from './tables.ts';

const table = (): string => tableName('apiKeys');
const PING_TIMEOUT_MS = 1_500;

/** True when the API-key table answers a read within 1.5 s (every keyed request needs that table). */
export async function tableAnswers(): Promise<boolean> {
  try {
    await db.send(new GetCommand({ TableName: table(), Key: { keyHash: 'health-check' } }), {
      abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS),
    });
    return true;
  } catch {
    return false;
  }
}
