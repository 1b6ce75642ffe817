import { isDeepStrictEqual } from 'node:util';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * Runs a conditional write. A failed condition returns `{ failed: true, old }` with the item as it
 * was (when the request asked for ALL_OLD on failure); every other error is rethrown.
 */
export async function conditionally<T>(
  write: () => Promise<T>,
): Promise<{ failed: false; result: T } | { failed: true; old: Record<string, unknown> | undefined }> {
  try {
    return { failed: false, result: await write() };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { failed: true, old: error.Item ? unmarshall(error.Item) : undefined };
  }
}

/**
 * Puts a new item that must not exist yet, and survives the SDK's retry of a put whose response was
 * lost: the retry finds the item there, and if it is exactly the item this call wrote (its fresh id
 * and timestamps make it unique), the write did happen and the put succeeded. Anything else there
 * is a real conflict.
 */
export async function putNew(
  send: (input: PutCommandInput) => Promise<unknown>,
  input: PutCommandInput & { Item: Record<string, unknown> },
  keyAttribute: string,
): Promise<void> {
  const put = await conditionally(() =>
    send({
      ...input,
      ConditionExpression: `attribute_not_exists(${keyAttribute})`,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  if (put.failed && !isDeepStrictEqual(put.old, input.Item)) {
    throw new Error(`An item with the same key as a new one already exists in ${input.TableName}`);
  }
}
