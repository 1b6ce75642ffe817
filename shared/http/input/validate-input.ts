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

/** A value still to look at, and how it was reached: its key and its parent's entry. */
interface Visit {
  value: unknown;
  key?: PropertyKey;
  parent?: Visit;
}

const pathOf = (visit: Visit | undefined): PropertyKey[] => {
  const path: PropertyKey[] = [];
  for (let at = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * The path of the first string (value or key) that is not well-formed Unicode: a lone surrogate, as
 * JSON's `\ud800` can spell, is no text, and DynamoDB refuses to store it as UTF-8. A loop over an
 * explicit stack, each entry linked to its parent: no recursion to exhaust, no path copied per level,
 * so the time is linear in the size of the input, whatever its depth. Depth-first in key order, so
 * the first offending field is the one reported.
 */
function illFormedTextAt(input: unknown): PropertyKey[] | undefined {
  const pending: Visit[] = [{ value: input }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    // An ill-formed key is reported as the object that holds it.
    if (typeof visit.key === 'string' && !visit.key.isWellFormed()) return pathOf(visit.parent);
    const { value } = visit;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) return pathOf(visit);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as [string, unknown];
      pending.push({ value: child, key, parent: visit });
    }
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

/**
 * The request headers a schema names, under the schema's spelling of each name (HTTP header names
 * are case-insensitive; clients and API Gateway keep whatever case was sent). Others are left out.
 */
export function namedHeaders(
  schema: z.ZodMiniObject,
  headers: Record<string, string | undefined> | null,
): Record<string, string> {
  const sent = new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const named: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = sent.get(name.toLowerCase());
    if (value !== undefined) named[name] = value;
  }
  return named;
}
