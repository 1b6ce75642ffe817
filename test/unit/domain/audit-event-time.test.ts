import { auditScope } from '#shared/db/audit/scope.ts';
import { asSystemChange } from '#shared/db/audit/system-changes.ts';
import { newEventIdentity } from '#shared/model/audit.ts';
import { timeOfId } from '#shared/model/ids.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';

// `since` and `until` select a team's events by their id's time; an event's `at` must be that very
// time, or `?since=<an event's at>` could leave out that event (its id a millisecond older).

/** A clock that moves on by a millisecond each time it is read. */
function tickingClock(): void {
  let now = 1_790_000_000_000;
  clock.now = () => now++;
}

describe("an audit event's time", () => {
  restoreClockAfterEach();

  it("is its id's time, however the clock moves meanwhile", () => {
    tickingClock();
    const { id, at, expiresAt } = newEventIdentity(90);
    expect(Date.parse(at)).toBe(timeOfId(id));
    // Kept the retention's days from that time, to the second.
    expect(expiresAt).toBe(Math.floor(timeOfId(id) / 1000) + 90 * 24 * 60 * 60);
  });

  it("is its id's time for the platform's own moves too", async () => {
    tickingClock();
    const stamp = await asSystemChange(
      'production.promoted',
      'team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B',
      async () => auditScope()?.stamp,
    );
    expect(stamp && Date.parse(stamp.at)).toBe(stamp && timeOfId(stamp.id));
  });
});
