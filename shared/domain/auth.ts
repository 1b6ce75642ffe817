import type * as z from 'zod/mini';
import { findCredentials, findUser, type User, updatePasswordHash } from '#shared/db/users.ts';
import { UnauthorizedError } from '#shared/model/errors.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { LoginResult as LoginResultSchema } from '#shared/schemas/account-resources.ts';
import type { LoginInput, RegisterInput } from '#shared/schemas/auth.ts';
import { issueApiKey } from './api-keys.ts';
import { throttleLoginAttempt } from './auth-throttle.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { createUser } from './users.ts';

/** What login answers: the response schema's type, so no field goes undocumented. */
export type LoginResult = z.output<typeof LoginResultSchema>;

/** Self-service sign-up: always a member; admins are made by operators. */
export const register = (input: RegisterInput): Promise<User> => createUser({ ...input, role: 'member' });

const BAD_CREDENTIALS = 'Invalid email or password';

/**
 * Checks the password and issues an API key. An unknown email costs a hash too, and both failures
 * get the same error, so neither the answer nor its timing tells whether an account exists.
 */
export async function login(input: LoginInput): Promise<LoginResult> {
  await throttleLoginAttempt(input.email);
  const credentials = await findCredentials(input.email);
  if (!credentials) {
    await hashPassword(input.password);
    throw new UnauthorizedError(BAD_CREDENTIALS);
  }
  if (!(await verifyPassword(input.password, credentials.passwordHash)))
    throw new UnauthorizedError(BAD_CREDENTIALS);
  if (needsRehash(credentials.passwordHash)) {
    await updatePasswordHash(input.email, await hashPassword(input.password));
  }
  const user = await findUser(credentials.userId, { consistent: true });
  if (!user) throw new Error(`Credentials of ${credentials.userId} have no user`);
  // A full-scope key, named after the login that made it, so that it can be told apart in the list.
  const issued = await issueApiKey({ userId: user.id, role: user.role, name: `login ${isoNow()}` });
  return { apiKey: issued.apiKey, tokenType: 'Bearer', expiresAt: issued.key.expiresAt, user };
}
