import { randomUUID } from 'node:crypto';
import { type Holder, releasePlace, renewPlace, takePlace } from '#shared/db/open-places.ts';
import type { Caller } from '#shared/model/caller.ts';
import { RateLimitedError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';
import { outsideAnyRequest, withDeadline } from '#shared/runtime/deadline.ts';
import { logError } from '#shared/runtime/log.ts';

// Requests held open by design (a followed log, up to 14 minutes; a wait, up to 25 s) hold a function
// each for that long, so besides the request rate they are limited by how many are open at once: at
// most OPEN_PER_KEY per key and OPEN_PER_OWNER per owner (the team, once teams exist: the holder of
// that limit is `holdersOf`'s second entry, and re-keying it is a change there alone). One more is
// 429 `rate_limit_exceeded`.
//
// A request holds a place of each holder under a lease (shared/db/open-places.ts) that runs for
// LEASE_MS and is renewed every RENEW_EVERY_MS while the request is open, and given back as soon as
// it ends: a function that dies without giving its places back (a crash, a timeout) holds them until
// its lease runs out, at most LEASE_MS.

export const OPEN_PER_KEY = 10;
export const OPEN_PER_OWNER = 25;
/** A lease's length: how long a dead holder keeps a place at most. */
export const LEASE_MS = 60_000;
/** Renewed at a third of its length: two renewals may fail (a slow store) before it runs out. */
const RENEW_EVERY_MS = 20_000;

/**
 * The time a renewal or a release gets. They run long after the request's own deadline (a stream
 * outlives it by minutes), so each has one of its own.
 */
const UPKEEP_DEADLINE_MS = 3_000;
const upkeep = <T>(work: () => Promise<T>): Promise<T> =>
  outsideAnyRequest(() => withDeadline(UPKEEP_DEADLINE_MS, work));

/** Who a caller's held-open requests are counted against, each with its limit. */
const holdersOf = (caller: Caller): Holder[] => [
  { bucket: `open#key#${caller.keyId}`, limit: OPEN_PER_KEY },
  { bucket: `open#owner#${caller.team.partition}`, limit: OPEN_PER_OWNER },
];

export interface HeldPlace {
  /** True once a renewal found the lease gone: the request should end (a client reconnects). */
  readonly lost: boolean;
  /** Gives the places back (once; later calls do nothing). */
  release(): Promise<void>;
}

/**
 * Takes a place for one held-open request of the caller, or throws the 429 (with when to try again:
 * when the first lease of the full holder runs out, if its request does not end sooner).
 */
export async function holdPlace(caller: Caller): Promise<HeldPlace> {
  const lease = randomUUID();
  const now = clock.now();
  const holders = holdersOf(caller);
  const taken = await Promise.all(holders.map((holder) => takePlace(holder, lease, now + LEASE_MS, now)));
  const held = holders.flatMap((holder, index) => {
    const outcome = taken[index];
    return outcome?.taken ? [{ holder, place: outcome.place }] : [];
  });
  const giveBack = () =>
    upkeep(() => Promise.all(held.map(({ holder, place }) => releasePlace(holder, place, lease))));
  const full = taken.flatMap((outcome) => (outcome.taken ? [] : [outcome.freesAt]));
  if (full.length > 0) {
    await giveBack();
    throw new RateLimitedError(Math.max(1, Math.ceil((Math.min(...full) - now) / 1000)));
  }

  let lost = false;
  let released = false;
  const renewal = setInterval(() => {
    const until = clock.now() + LEASE_MS;
    upkeep(() => Promise.all(held.map(({ holder, place }) => renewPlace(holder, place, lease, until)))).then(
      (renewed) => {
        if (renewed.includes(false)) lost = true;
      },
      (error: unknown) => logError('held-open request: a renewal failed', { lease }, error),
    );
  }, RENEW_EVERY_MS);
  // Never what keeps a process alive (the request does that).
  renewal.unref();
  return {
    get lost() {
      return lost;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(renewal);
      // A place not given back (the store did not answer) is freed when its lease runs out.
      await giveBack().catch((error: unknown) =>
        logError('held-open request: giving its places back failed', { lease }, error),
      );
    },
  };
}
