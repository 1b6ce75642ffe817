import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { conditionally } from './conditional.ts';
import { tableName } from './tables.ts';

// Idempotency records, one per user and Idempotency-Key. A request claims its record with one
// conditional put; the claim either wins (run the request, then store its answer), or returns the
// record that is there (replay it, or refuse). Expiry is checked in the conditions, not left to TTL:
// DynamoDB deletes expired items only eventually, and DynamoDB Local never does.

const table = (): string => tableName('idempotency');

/** The answer as the client first received it, replayed as it was. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'completed'; fingerprint: string; response: StoredResponse }
  | { outcome: 'in_progress'; fingerprint: string };

export interface ClaimRequest {
  id: string;
  fingerprint: string;
  nowSeconds: number;
  /** When a claim whose request never finished (its function died) may be taken over. */
  lockedUntil: number;
  expiresAt: number;
}

/**
 * Claims the record. Each claim carries an id of its own (`claim`), so that a claim applied whose
 * answer was lost, and which the SDK sends again, recognizes its own record in the refusal and goes
 * on as claimed, instead of answering its own request 409 "still in progress" until the lock runs out.
 */
export async function claim(request: ClaimRequest): Promise<Claim> {
  const claimId = randomUUID();
  const put = await conditionally(() =>
    db.send(
      new PutCommand({
        TableName: table(),
        Item: {
          id: request.id,
          claim: claimId,
          fingerprint: request.fingerprint,
          state: 'in_progress',
          lockedUntil: request.lockedUntil,
          expiresAt: request.expiresAt,
        },
        ConditionExpression:
          'attribute_not_exists(id) OR expiresAt <= :now OR (#state = :inProgress AND lockedUntil <= :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': request.nowSeconds, ':inProgress': 'in_progress' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (!put.failed) return { outcome: 'claimed' };
  const old = put.old ?? {};
  if (old.claim === claimId) return { outcome: 'claimed' };
  const fingerprint = String(old.fingerprint);
  if (old.state === 'completed')
    return { outcome: 'completed', fingerprint, response: old.response as StoredResponse };
  return { outcome: 'in_progress', fingerprint };
}

/** Stores the answer of a claimed request. A retry of this write that finds it done is fine. */
export async function complete(id: string, fingerprint: string, response: StoredResponse): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { id },
        UpdateExpression: 'SET #state = :completed, #response = :response REMOVE lockedUntil',
        ConditionExpression: 'fingerprint = :fingerprint',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':response': response,
          ':fingerprint': fingerprint,
        },
      }),
    ),
  );
}

/** Gives up a claim whose request failed, so that a retry runs it instead of waiting for the lock. */
export async function release(id: string, fingerprint: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { id },
        UpdateExpression: 'SET lockedUntil = :released',
        ConditionExpression: '#state = :inProgress AND fingerprint = :fingerprint',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':released': 0,
          ':inProgress': 'in_progress',
          ':fingerprint': fingerprint,
        },
      }),
    ),
  );
}
