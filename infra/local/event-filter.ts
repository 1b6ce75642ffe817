import type { FilterPattern, FilterValue } from '#shared/consumers.ts';

// Lambda's event filtering, as the local stream poller needs it: whether a stream record matches a
// consumer's filter pattern (shared/consumers.ts), in the part of the syntax the patterns use. A
// field matches a list when its value is one of the list's (a string equal to it, or a string that
// `anything-but` does not name, or `{ exists: true }` when it is there at all, `false` when not); it
// matches an object when each of the object's fields matches. A field the record lacks matches
// nothing but `{ exists: false }`, as in Lambda.

const matchesValue = (value: unknown, allowed: FilterValue): boolean => {
  if (typeof allowed === 'string') return value === allowed;
  if ('exists' in allowed) return (value !== undefined) === allowed.exists;
  return typeof value === 'string' && !allowed['anything-but'].includes(value);
};

/** Whether `event` (a record as Lambda hands it over) passes `pattern`. */
export function matchesFilter(event: unknown, pattern: FilterPattern): boolean {
  if (typeof event !== 'object' || event === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const value = (event as Record<string, unknown>)[field];
    if (Array.isArray(expected)) return expected.some((allowed: FilterValue) => matchesValue(value, allowed));
    if (value === undefined) return false;
    return matchesFilter(value, expected as FilterPattern);
  });
}
