import { randomUUID } from 'node:crypto';
import { releasePlace, renewPlace, takePlace } from '#shared/db/open-places.ts';

// Places for held-open requests on the run's DynamoDB Local: a holder's places are taken exactly up to
// its limit, a lease that ran out (its holder died without giving it back) frees its place, and only
// its own lease renews or gives a place back.

const holder = (limit: number) => ({ bucket: `open#test#${randomUUID()}`, limit });
const NOW = 1_900_000_000_000;

describe('open places', () => {
  it('are taken by exactly `limit` of many racing leases, and the rest learn when the first frees', async () => {
    const three = holder(3);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => takePlace(three, `lease-${index}`, NOW + 60_000 + index, NOW)),
    );
    const taken = outcomes.flatMap((outcome) => (outcome.taken ? [outcome.place] : []));
    expect(taken.sort()).toEqual([0, 1, 2]);
    const refused = outcomes.filter((outcome) => !outcome.taken);
    expect(refused).toHaveLength(5);
    const firstUntil = Math.min(
      ...outcomes.flatMap((outcome, index) => (outcome.taken ? [NOW + 60_000 + index] : [])),
    );
    for (const outcome of refused) expect(outcome).toEqual({ taken: false, freesAt: firstUntil });
  });

  it('frees a place whose lease ran out without being given back, as when its function crashed', async () => {
    const one = holder(1);
    expect(await takePlace(one, 'crashed', NOW + 60_000, NOW)).toEqual({ taken: true, place: 0 });
    expect(await takePlace(one, 'next', NOW + 90_000, NOW + 30_000)).toEqual({
      taken: false,
      freesAt: NOW + 60_000,
    });
    // The crashed holder never renews: once its lease has run out, the place is taken again.
    expect(await takePlace(one, 'next', NOW + 120_000, NOW + 60_001)).toEqual({ taken: true, place: 0 });
    expect(await renewPlace(one, 0, 'crashed', NOW + 200_000)).toBe(false);
    expect(await renewPlace(one, 0, 'next', NOW + 200_000)).toBe(true);
  });

  it('is given back by its own lease only', async () => {
    const one = holder(1);
    await takePlace(one, 'mine', NOW + 60_000, NOW);
    await releasePlace(one, 0, 'not mine');
    expect((await takePlace(one, 'other', NOW + 60_000, NOW)).taken).toBe(false);
    await releasePlace(one, 0, 'mine');
    expect(await takePlace(one, 'other', NOW + 60_000, NOW)).toEqual({ taken: true, place: 0 });
  });
});
