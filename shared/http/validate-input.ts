import type * as z from 'zod/mini';
import { ValidationError } from '#shared/model/errors.ts';

// Turns the first zod issue into the contract's validation_error: `field` is the dotted path of
// the offending input, the message says what is wrong with it in plain words.

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describe(issue: Issue, input: unknown): string {
  // A message given in the schema is meant for the client as it stands.
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters`
        : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : `must be at most ${issue.maximum}`;
    case 'unrecognized_keys':
      return 'is not a known field';
    default:
      return 'is not valid';
  }
}

const article = (expected: string): string =>
  /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;

/**
 * The path of the first string (value or key) that is not well-formed Unicode: a lone surrogate, as
 * JSON's `\ud800` can spell, is no text, and DynamoDB refuses to store it as UTF-8.
 */
function illFormedTextAt(input: unknown, path: readonly PropertyKey[] = []): PropertyKey[] | undefined {
  if (typeof input === 'string') return input.isWellFormed() ? undefined : [...path];
  if (typeof input !== 'object' || input === null) return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (!key.isWellFormed()) return [...path];
    const found = illFormedTextAt(value, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Parses one part of the request; on failure throws a ValidationError naming the field. */
export function parseInput<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  rootField: string,
): z.output<S> {
  const illFormed = illFormedTextAt(input);
  if (illFormed) {
    const field = illFormed.length > 0 ? illFormed.map(String).join('.') : rootField;
    throw new ValidationError(field, `${field} must be well-formed Unicode text`);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new ValidationError(rootField, `${rootField} is not valid`);
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const field = path.length > 0 ? path.map(String).join('.') : rootField;
  throw new ValidationError(field, `${field} ${describe(issue, input)}`);
}
