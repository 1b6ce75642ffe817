// What every endpoint function is given to run with: the stack (infra/api/endpoint-function.ts) deploys
// these, the local gateway's Lambda context reports them, and the code that must fit inside a
// function's time (idempotency's lock, the request deadline) reads them here. No imports: function
// bundles load this module.

/** The Lambda timeout of every endpoint function. */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** Lambda memory of a function whose route row names none. */
export const DEFAULT_MEMORY_MB = 256;

/** The memory of a route's function: its row's `memoryMb` (CPU scales with it), or the default. */
export const functionMemoryMb = (route: { memoryMb?: number }): number => route.memoryMb ?? DEFAULT_MEMORY_MB;

/** Lambda's ceiling on a function's timeout. */
export const MAX_FUNCTION_TIMEOUT_SECONDS = 900;

/**
 * The timeout of a route's function: the default, plus the time its row holds a request open by
 * design (`holdsOpenSeconds`: a wait), so that holding never eats into the time for work; Lambda's
 * longest for a row that streams.
 */
export const functionTimeoutSeconds = (route: { holdsOpenSeconds?: number; streams?: boolean }): number =>
  route.streams
    ? // A stream ends itself before this (LOG_STREAM_LIFETIME_MS, 14 minutes), with time to spare.
      MAX_FUNCTION_TIMEOUT_SECONDS
    : Math.min(MAX_FUNCTION_TIMEOUT_SECONDS, FUNCTION_TIMEOUT_SECONDS + (route.holdsOpenSeconds ?? 0));

/** What a route's request deadline grows by: the time its row may hold a request open, in ms. */
export const holdsOpenMs = (route: { holdsOpenSeconds?: number }): number =>
  (route.holdsOpenSeconds ?? 0) * 1000;
