import * as z from 'zod/mini';
import { hasControlCharacter } from '../domain/text.ts';
import { atMost } from './common.ts';

// Emails are compared in one form: trimmed and lower-cased before anything else sees them.
const Email = z.string().check(
  z.trim(),
  z.toLowerCase(),
  atMost(254),
  // Labels cannot contain the dots that separate them: no overlapping repeats, no backtracking.
  z.regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, 'must be an email address'),
);

const characters = (value: string): number => [...value].length;

// Length is the only rule (OWASP, NIST 800-63B): no composition rules, and spaces count.
const NewPassword = z.string().check(
  z.refine((value: string) => characters(value) >= 8, 'must be at least 8 characters'),
  z.refine((value: string) => characters(value) <= 256, 'must be at most 256 characters'),
);

export const RegisterBody = z.strictObject({
  email: Email,
  password: NewPassword,
  name: z.optional(
    z.string().check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      atMost(100),
      z.refine((value: string) => !hasControlCharacter(value), 'must not contain control characters'),
    ),
  ),
});

export const LoginBody = z.strictObject({
  email: Email,
  password: z.string().check(atMost(1024)),
});

export type RegisterInput = z.output<typeof RegisterBody>;
export type LoginInput = z.output<typeof LoginBody>;
