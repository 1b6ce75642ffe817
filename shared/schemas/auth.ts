import * as z from 'zod/mini';
import { atMost } from './common.ts';
import { DisplayName } from './names.ts';

// Emails are compared in one form: trimmed and lower-cased before anything else sees them.
export const Email = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    atMost(254),
    // Labels cannot contain the dots that separate them: no overlapping repeats, no backtracking.
    z.regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, 'must be an email address'),
  )
  .register(z.globalRegistry, {
    description: 'Trimmed and lower-cased before anything else: `Ada@Example.com ` is `ada@example.com`.',
    examples: ['ada@example.com'],
  });

const characters = (value: string): number => [...value].length;

// Length is the only rule (OWASP, NIST 800-63B): no composition rules, and spaces count.
const NewPassword = z
  .string()
  .check(
    z.refine((value: string) => characters(value) >= 8, 'must be at least 8 characters'),
    z.refine((value: string) => characters(value) <= 256, 'must be at most 256 characters'),
  )
  .register(z.globalRegistry, {
    description: '8 to 256 characters (code points, spaces count); no other rules.',
    examples: ['correct horse battery'],
  });

export const RegisterBody = z
  .strictObject({
    email: Email,
    password: NewPassword,
    name: z.optional(DisplayName),
  })
  .register(z.globalRegistry, {
    id: 'RegisterBody',
    description: 'A taken email answers 409. Unknown fields are refused (400 naming the field).',
    examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' }],
  });

export const LoginBody = z
  .strictObject({
    email: Email,
    password: z.string().check(atMost(1024)),
  })
  .register(z.globalRegistry, {
    id: 'LoginBody',
    description: 'A wrong password and an unknown email get the same 401.',
    examples: [{ email: 'ada@example.com', password: 'correct horse battery' }],
  });

export type RegisterInput = z.output<typeof RegisterBody>;
export type LoginInput = z.output<typeof LoginBody>;
