import type { FilterPattern, FilterValue } from '#shared/consumers.ts';

// Lambda's event filtering, as the local stream poller needs it: whether a stream record matches a
// consumer's filter pattern (shared/consumers.ts), in the part of the syntax the patterns use. A
// field matches a list when its value is one of the list's (a string equal to it, or a string that
// `anything-but` does not name); it matches an object when each of the object's fields matches.
// A field the record lacks matches nothing, as in Lambda.

const matchesValue = (value: unknown, allowed: FilterValue): boolean =>
  typeof allowed === 'string'
    ? value === allowed
    : typeof value === 'string' && !allowed['anything-but'].includes(value);

/** Whether `event` (a record as Lambda hands it over) passes `pattern`. */
export function matchesFilter(event: unknown, pattern: FilterPattern): boolean {
  if (typeof event !== 'object' || event === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const value = (event as Record<string, unknown>)[field];
    if (value === undefined) return false;
    if (Array.isArray(expected)) return expected.some((allowed: FilterValue) => matchesValue(value, allowed));
    return matchesFilter(value, expected as FilterPattern);
  });
}
