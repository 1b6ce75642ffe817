import type { RateLimitState } from '#shared/model/rate-limit.ts';

// The IETF rate-limit fields, beside the X-RateLimit-* trio (which the contract keeps), in the syntax
// of draft-ietf-httpapi-ratelimit-headers-11 (May 2026; the fields are as in -09 and -10): structured
// field lists of one item each. `RateLimit-Policy` names the quota and its window; `RateLimit` what
// is left of it and the seconds until the window ends (a delay, not a timestamp, so clients need no
// synchronised clock). The policy is named "default": every answer reports one allowance, the one
// X-RateLimit-Limit reports (the key's, the source address's, or on a 429 the one that ran out).

export const POLICY_NAME = 'default';

/** `RateLimit-Policy` and `RateLimit` for an allowance, `windowSeconds` long, at `nowSeconds`. */
export function ietfRateLimitFields(
  state: RateLimitState,
  windowSeconds: number,
  nowSeconds: number,
): { 'RateLimit-Policy': string; RateLimit: string } {
  const remaining = Math.max(0, state.remaining);
  const secondsLeft = Math.max(0, state.resetAt - nowSeconds);
  return {
    'RateLimit-Policy': `"${POLICY_NAME}";q=${state.limit};w=${windowSeconds}`,
    RateLimit: `"${POLICY_NAME}";r=${remaining};t=${secondsLeft}`,
  };
}
