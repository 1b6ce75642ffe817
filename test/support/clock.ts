import { clock } from '#shared/runtime/clock.ts';

/** The real clock, and an afterEach that puts it back after a test pinned `clock.now`. */
export function restoreClockAfterEach(): () => number {
  const realNow = clock.now;
  afterEach(() => {
    clock.now = realNow;
  });
  return realNow;
}
