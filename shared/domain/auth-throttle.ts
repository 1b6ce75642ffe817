import { countInBucket } from '#shared/db/keys/rate-buckets.ts';
import { RateLimitedError } from '#shared/model/errors.ts';
import { type RateLimitState, retryAfterSeconds } from '#shared/model/rate-limit.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';
import { config } from '#shared/runtime/config.ts';

// Brute-force brakes for /auth/*: per source address on every call, and per email on login, so
// that neither one address nor a spread of addresses can guess one account's password at speed.

const policy = (limit: number) => ({
  nowSeconds: nowSeconds(),
  windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  limit,
});

/** Counts an /auth/* request from a source address and returns what is left; throws once none is. */
export async function throttleAuthRequest(sourceIp: string): Promise<RateLimitState> {
  const counted = await countInBucket('auth-ip', sourceIp, policy(config.AUTH_RATE_LIMIT_MAX));
  if (!counted.allowed) {
    throw new RateLimitedError(retryAfterSeconds(counted.rateLimit, nowSeconds()), counted.rateLimit);
  }
  return counted.rateLimit;
}

/** Counts a login attempt for an email address; throws before any password is hashed. */
export async function throttleLoginAttempt(email: string): Promise<void> {
  const counted = await countInBucket('login-email', email, policy(config.LOGIN_EMAIL_RATE_LIMIT_MAX));
  if (!counted.allowed) {
    throw new RateLimitedError(retryAfterSeconds(counted.rateLimit, nowSeconds()), counted.rateLimit);
  }
}
