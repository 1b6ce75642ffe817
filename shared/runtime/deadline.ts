import { AsyncLocalStorage } from 'node:async_hooks';

// Every request has a deadline well inside its function's timeout. It travels with the request's
// async context rather than through every function's parameters, so the store's client can abort
// whatever call is in flight when it passes (shared/db/client.ts), whichever layer made the call.
// No settings are read here: the store's client imports this module, and must not make every
// module that loads it read the configuration too.

/** Kept free at the end of the function's time for the answer and its log line. */
const WRAP_UP_MS = 500;

const current = new AsyncLocalStorage<AbortSignal>();

/**
 * The time a request gets: the deadline (REQUEST_DEADLINE_MS, 3 s by default), or less when the
 * function has less time left. A request makes a few sequential DynamoDB calls of a few milliseconds
 * each (a cold one adds a TLS handshake), and login hashes a password for about 50 ms; 3 s is dozens
 * of times that, yet a stalled store turns into a 500 long before the function's 10 s timeout would
 * hold the container, and a client retrying on a 500 has its answer while a retry is still useful.
 * (In Lambda each request has a CPU to itself; a local run that hashes fifty passwords at once on
 * two cores may want more.)
 */
export function requestBudgetMs(deadlineMs: number, remainingMs: number | undefined): number {
  if (remainingMs === undefined) return deadlineMs;
  return Math.max(0, Math.min(deadlineMs, remainingMs - WRAP_UP_MS));
}

/**
 * Runs one request under a deadline `budgetMs` from now. A deadline already set around it (the local
 * gateway's, which counts from the request's arrival) still holds: whichever passes first aborts.
 */
export function withDeadline<T>(budgetMs: number, run: () => Promise<T>): Promise<T> {
  const own = AbortSignal.timeout(Math.max(0, Math.ceil(budgetMs)));
  const outer = current.getStore();
  return current.run(outer ? AbortSignal.any([outer, own]) : own, run);
}

/** The running request's deadline, as a signal that aborts when it passes (none outside a request). */
export const requestDeadline = (): AbortSignal | undefined => current.getStore();

/**
 * Runs `start` outside any request's deadline: for background work a request sets going (a timer
 * for a webhook retry, a poller's loop), which would otherwise inherit the request's signal with
 * its async context and be aborted once that request's time is up, long after it answered.
 */
export const outsideAnyRequest = <T>(start: () => T): T => current.exit(start);
