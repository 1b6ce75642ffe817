import { setTimeout as sleep } from 'node:timers/promises';
import { revokeAllKeysOf } from '#shared/db/keys/api-keys.ts';
import { readKeyLedger } from '#shared/db/keys/ledger.ts';
import { isoNow, nowSeconds } from '#shared/runtime/clock.ts';

// A deleted team's tokens, revoked: its own module, so that the deletion's function does not carry
// the making of tokens (team-tokens.ts) with it.

/** Reads of the owner index a deleted team's tokens get, waiting twice as long before each: 0.75 s in all. */
const TOKEN_INDEX_READS = 5;
const FIRST_WAIT_MS = 50;

/**
 * Revokes every token of a team being deleted (closed by then: no new one can be made). The owner
 * index finds them, and can lag behind a token made a moment before the close; the team's key
 * ledger, read consistently, counts every live one, so the index is read again until it has shown
 * them all. If it never does, the deletion fails (500) and reopens the team, to be tried again.
 */
export async function revokeAllTeamTokens(teamId: string): Promise<void> {
  const { entries } = await readKeyLedger(teamId);
  const now = nowSeconds();
  const live = Object.keys(entries).filter((keyId) => (entries[keyId] ?? 0) > now);
  const revoked = new Set<string>();
  for (let read = 1; ; read++) {
    for (const keyId of await revokeAllKeysOf(teamId, isoNow(), revoked)) revoked.add(keyId);
    const missing = live.filter((keyId) => !revoked.has(keyId));
    if (missing.length === 0) return;
    if (read >= TOKEN_INDEX_READS) {
      throw new Error(`The owner index has not listed tokens ${missing.join(', ')} of team ${teamId}`);
    }
    await sleep(FIRST_WAIT_MS * 2 ** (read - 1));
  }
}
