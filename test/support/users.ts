import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../shared/domain/api-keys.ts';
import type { Role } from '../../shared/model/caller.ts';
import type { Scope } from '../../shared/model/scopes.ts';

export interface TestCaller {
  userId: string;
  key: string;
}

/**
 * A fresh user id with a key issued through the same function login uses (never raw items), so
 * every test has its own owner, allowance and data.
 */
export async function newCaller(
  options: { role?: Role; rateLimit?: number; ttlSeconds?: number; scopes?: Scope[] } = {},
): Promise<TestCaller> {
  const userId = `usr_test_${randomUUID()}`;
  const issued = await issueApiKey({
    userId,
    role: options.role ?? 'member',
    name: 'test',
    ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
  });
  return { userId, key: issued.apiKey };
}
