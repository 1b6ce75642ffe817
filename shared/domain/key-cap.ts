import { afterLostRace } from '#shared/db/conditional.ts';
import type { KeyRecord } from '#shared/db/keys/api-keys.ts';
import { putKeyWithLedger, readKeyLedger } from '#shared/db/keys/ledger.ts';
import type { TeamOpenCheck } from '#shared/db/teams/teams.ts';
import { teamClosed } from '#shared/domain/teams/closing.ts';
import { ConflictError } from '#shared/model/errors.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';

// Each key a user makes with POST /keys carries the allowance of the key that made it, so without
// a ceiling a user multiplies their allowance by minting keys (issue 22). 20 keys a user: a CI
// system, a few laptops and scripts, with room to rotate (make the new key, then revoke the old),
// as GitHub-style platforms let a user hold a handful to a few dozen tokens; and it bounds a user's
// total allowance at 20 times the per-key one. The ceiling is checked where keys are made, so
// admission, the path every request takes, is unchanged (still one conditional write).

/** The most keys made with POST /keys a user may hold at once (unexpired and not revoked). */
export const MAX_KEYS_PER_USER = 20;

/** Concurrent creations for one user retry this often on a ledger that moved, then give up. */
const ATTEMPTS = 6;

/** What the ceiling's refusal says, by who holds the keys: a user's, or a team's tokens (listed under its id). */
const overCap = {
  user: `A user may hold at most ${MAX_KEYS_PER_USER} keys made with POST /keys at once: revoke one (DELETE /keys/{id}) first`,
  team: `A team may hold at most ${MAX_KEYS_PER_USER} team tokens at once: revoke one (DELETE /teams/{teamId}/tokens/{id}) first`,
} as const;

/**
 * Stores a new key's record if its holder (a user, or a team for its tokens) holds fewer than
 * MAX_KEYS_PER_USER; a team's token also only while the team is open (`teamOpen`, team-closing.ts).
 */
export async function putKeyWithinCap(
  key: KeyRecord,
  holder: keyof typeof overCap = 'user',
  teamOpen?: TeamOpenCheck,
): Promise<void> {
  const { keyId } = key;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const ledger = await readKeyLedger(key.userId);
    const now = nowSeconds();
    const live = Object.fromEntries(
      Object.entries(ledger.entries).filter(([, expiresAt]) => expiresAt > now),
    );
    if (Object.keys(live).length >= MAX_KEYS_PER_USER) {
      throw new ConflictError(overCap[holder]);
    }
    const entries = { ...live, [keyId]: key.expiresAt };
    const stored = await putKeyWithLedger(key.userId, ledger.version, entries, keyId, { ...key }, teamOpen);
    if (stored === 'stored') return;
    if (stored === 'teamClosed') throw teamClosed(key.userId);
    await afterLostRace(attempt);
  }
  throw new ConflictError(`Other keys of this ${holder} are being made at the same time: try again`);
}
