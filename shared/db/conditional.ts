import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
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
