import { AsyncLocalStorage } from 'node:async_hooks';

// The time a request spends waiting for DynamoDB, for its metrics (shared/http/metrics.ts). Every
// call goes through the clients of shared/db/client.ts, which report each call here; the request
// that made it is found from the async context, as the deadline is (shared/runtime/deadline.ts).

/** The store calls of one request: how many, their summed time and the longest one. */
export interface StoreTimings {
  calls: number;
  totalMs: number;
  maxMs: number;
}

const current = new AsyncLocalStorage<StoreTimings>();

/** Runs one request with a fresh record of its store calls. */
export function withStoreTimings<T>(run: () => Promise<T>): Promise<T> {
  return current.run({ calls: 0, totalMs: 0, maxMs: 0 }, run);
}

/** The running request's store calls so far (none outside a request). */
export const storeTimings = (): StoreTimings | undefined => current.getStore();

/** Adds one call, retries included, to the running request's record. */
export function recordStoreCall(ms: number): void {
  const timings = current.getStore();
  if (!timings) return;
  timings.calls += 1;
  timings.totalMs += ms;
  timings.maxMs = Math.max(timings.maxMs, ms);
}
