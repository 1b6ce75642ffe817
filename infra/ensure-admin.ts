import { randomBytes } from 'node:crypto';
import { createUser } from '#shared/domain/users.ts';
import { ConflictError } from '#shared/model/errors.ts';
import { RegisterBody } from '#shared/schemas/auth.ts';

// The operator's admin: registration only ever makes members. Used by `npm start` (from
// PLATFORM_ADMIN_EMAIL / PLATFORM_ADMIN_PASSWORD) and by `npm run create-admin` for a deployed stack.

export interface AdminOutcome {
  email: string;
  created: boolean;
  /** Set when no password was given and one was generated: shown once, never stored in clear. */
  generatedPassword?: string;
}

export async function ensureAdmin(emailInput: string, passwordInput?: string): Promise<AdminOutcome> {
  const generatedPassword = passwordInput ? undefined : randomBytes(18).toString('base64url');
  const password = passwordInput ?? generatedPassword ?? '';
  const parsed = RegisterBody.safeParse({ email: emailInput, password });
  if (!parsed.success) {
    throw new Error('The admin email must be an email address and its password 8 to 256 characters long');
  }
  try {
    await createUser({ email: parsed.data.email, password, role: 'admin', name: 'Administrator' });
    return { email: parsed.data.email, created: true, ...(generatedPassword ? { generatedPassword } : {}) };
  } catch (error) {
    if (error instanceof ConflictError) return { email: parsed.data.email, created: false };
    throw error;
  }
}
