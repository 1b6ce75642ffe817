import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db } from '#shared/db/client.ts';
import { insertUser } from '#shared/db/users.ts';
import { ConflictError } from '#shared/model/errors.ts';

// DynamoDB cancels transactions that race on the same item with `TransactionConflict`; DynamoDB
// Local never does, so this path is exercised with a stand-in for the client's `send`.

const user = {
  id: 'usr_1',
  email: 'race@example.test',
  name: null,
  role: 'member' as const,
  createdAt: 'now',
};

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const realSend = db.send;
afterEach(() => {
  db.send = realSend;
});

/** Replaces `db.send` with one that plays the given outcomes in turn, and counts the calls. */
function script(outcomes: (Error | 'ok')[]): { calls: () => number } {
  let calls = 0;
  db.send = (async () => {
    const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
    calls += 1;
    if (outcome instanceof Error) throw outcome;
    return {};
  }) as unknown as typeof db.send;
  return { calls: () => calls };
}

describe('storing a user while other registrations race for the same email', () => {
  it('tries again after a transaction conflict and answers the taken email with a conflict', async () => {
    const played = script([
      cancelled('TransactionConflict', 'None'),
      cancelled('ConditionalCheckFailed', 'None'),
      // The email's marker, read to tell another registration from this one's own applied retry.
      'ok',
    ]);
    await expect(insertUser(user, 'hash')).rejects.toBeInstanceOf(ConflictError);
    expect(played.calls()).toBe(3);
  });

  it('succeeds when the retry wins', async () => {
    const played = script([cancelled('None', 'TransactionConflict'), 'ok']);
    await expect(insertUser(user, 'hash')).resolves.toBeUndefined();
    expect(played.calls()).toBe(2);
  });

  it('gives up after three retries and lets the failure through (a 500, not a false 409)', async () => {
    const played = script([cancelled('TransactionConflict', 'TransactionConflict')]);
    await expect(insertUser(user, 'hash')).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(played.calls()).toBe(4);
  });
});
