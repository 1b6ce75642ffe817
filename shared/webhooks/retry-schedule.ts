// When a failed delivery is tried again. Exponential (×4 from one unit) up to a ceiling of ten
// units, with ±20 % jitter so that the retries of many events to one receiver that comes back do
// not arrive together. One unit is WEBHOOK_RETRY_BASE_SECONDS (60 s, shared/runtime/config.ts): the retries then come after
// about 1, 4, 16 and 64 minutes, 4.3 hours, then 10, 10 hours: eight attempts in about 26 hours,
// after which the event is dead-lettered. Tests scale the unit down to milliseconds.

/** Delays before attempts 2..8, in units. */
const DELAY_UNITS = [1, 4, 16, 64, 256, 600, 600] as const;

export const MAX_ATTEMPTS = DELAY_UNITS.length + 1;

const JITTER = 0.2;

/**
 * Seconds to wait after failed attempt `attempt` (1-based) before the next, or undefined when it
 * was the last. `random` is in [0, 1).
 */
export function retryDelaySeconds(
  attempt: number,
  baseSeconds: number,
  random = Math.random(),
): number | undefined {
  const units = DELAY_UNITS[attempt - 1];
  if (units === undefined) return undefined;
  return units * baseSeconds * (1 - JITTER + 2 * JITTER * random);
}

/** The shortest time from the first attempt to the dead letter: how long "failing for a day" is. */
export const scheduleSeconds = (baseSeconds: number): number =>
  DELAY_UNITS.reduce((sum, units) => sum + units * baseSeconds * (1 - JITTER), 0);
