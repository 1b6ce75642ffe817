import { clock } from '#shared/runtime/clock.ts';

/**
 * Pins the service's clock halfway into the current rate-limit window (windows are aligned to
 * multiples of their length), so that no request of a test opens a new window; returns that time
 * in epoch seconds. Use with restoreClockAfterEach.
 */
export function pinMidWindow(windowSeconds = 60): number {
  const now = Math.floor(Date.now() / 1000);
  const mid = now - (now % windowSeconds) + Math.floor(windowSeconds / 2);
  clock.now = () => mid * 1000;
  return mid;
}
