// Fixed-window rate limiting, as arithmetic. Windows are aligned to multiples of their length in
// epoch seconds, so every container agrees on where a window starts without talking to the others.

/** The allowance a response reports in its X-RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window ends, in UTC epoch seconds. */
  resetAt: number;
}

export interface Window {
  start: number;
  end: number;
}

export function windowAt(nowSeconds: number, windowSeconds: number): Window {
  const start = nowSeconds - (nowSeconds % windowSeconds);
  return { start, end: start + windowSeconds };
}

export function allowance(limit: number, used: number, window: Window): RateLimitState {
  return { limit, remaining: Math.max(0, limit - used), resetAt: window.end };
}

/** Whole seconds until the window ends, at least 1 (a 0 would invite an immediate retry). */
export function retryAfterSeconds(state: RateLimitState, nowSeconds: number): number {
  return Math.max(1, state.resetAt - nowSeconds);
}
