// How deeply a request body may nest objects and arrays. Every body the API documents is at most
// three levels deep (an object, an array of scopes or events, a string); 32 leaves room for clients
// that wrap things, and keeps every later walk of the value (validation, the idempotency
// fingerprint) short whatever a client sends. JSON.parse itself copes with any depth.

/** The deepest nesting of objects and arrays a JSON body may have; the body's own object is level 1. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `value` nests objects and arrays deeper than `limit` levels. A loop over an explicit stack,
 * not recursion: thousands of levels cannot exhaust the call stack, and each value is visited once.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}
