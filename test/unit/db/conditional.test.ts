import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { conditionally } from '#shared/db/conditional.ts';

// conditionally: a failed condition is an outcome; a write refused because a transaction on its item
// was in progress (a log append checks its deployment in one) is made again; anything else throws.

const conflict = () =>
  new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} });

describe('conditionally', () => {
  it('makes a write refused for a transaction in progress again, and answers its result', async () => {
    let calls = 0;
    const outcome = await conditionally(async () => {
      calls++;
      if (calls < 3) throw conflict();
      return 'written';
    });
    expect(outcome).toEqual({ failed: false, result: 'written' });
    expect(calls).toBe(3);
  });

  it('gives up after four conflicts, with the last one', async () => {
    let calls = 0;
    await expect(
      conditionally(async () => {
        calls++;
        throw conflict();
      }),
    ).rejects.toBeInstanceOf(TransactionConflictException);
    expect(calls).toBe(4);
  });

  it('answers a failed condition with the item as it was, without trying again', async () => {
    let calls = 0;
    const outcome = await conditionally(async () => {
      calls++;
      throw new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: { status: { S: 'ready' } },
      });
    });
    expect(outcome).toEqual({ failed: true, old: { status: 'ready' } });
    expect(calls).toBe(1);
  });

  it('throws anything else at once', async () => {
    let calls = 0;
    await expect(
      conditionally(async () => {
        calls++;
        throw new Error('the store is down');
      }),
    ).rejects.toThrow('the store is down');
    expect(calls).toBe(1);
  });
});
