import * as z from 'zod/mini';
import { parseInput } from '#shared/http/input/validate-input.ts';
import { ValidationError } from '#shared/model/errors.ts';

// parseInput: the first problem of a request part as the contract's validation_error, naming the
// field by its dotted path and saying what is wrong in plain words.

const Body = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(5)),
  count: z.optional(z.number().check(z.minimum(1), z.maximum(10))),
  tags: z.optional(z.array(z.string())),
  settings: z.optional(z.strictObject({ region: z.string() })),
  branch: z.optional(
    z.string().check(z.refine((value) => !value.includes(' '), 'branch must not contain spaces')),
  ),
});

function failureOf(input: unknown, schema: z.ZodMiniType = Body, root = 'body') {
  try {
    parseInput(schema, input, root);
  } catch (error) {
    if (error instanceof ValidationError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('the input was accepted');
}

describe('validating request input', () => {
  it('returns the parsed value when it is valid', () => {
    const Query = z.object({ limit: z.pipe(z.string(), z.transform(Number)) });
    expect(parseInput(Query, { limit: '20' }, 'query')).toEqual({ limit: 20 });
  });

  it.each([
    ['a missing field', { count: 2 }, 'name', 'name is required'],
    ['a field of another type', { name: 7 }, 'name', 'name must be a string'],
    ['an array where an object goes', { name: 'a', settings: [] }, 'settings', 'settings must be an object'],
    ['a string too short', { name: '' }, 'name', 'name must be at least 1 characters'],
    ['a string too long', { name: 'abcdef' }, 'name', 'name must be at most 5 characters'],
    ['a number too small', { name: 'a', count: 0 }, 'count', 'count must be at least 1'],
    ['a number too big', { name: 'a', count: 11 }, 'count', 'count must be at most 10'],
    ['a field nobody knows', { name: 'a', colour: 'red' }, 'colour', 'colour is not a known field'],
    [
      'a nested field nobody knows',
      { name: 'a', settings: { region: 'x', zone: 1 } },
      'settings.zone',
      'settings.zone is not a known field',
    ],
    ['a bad item of an array', { name: 'a', tags: ['ok', 3] }, 'tags.1', 'tags.1 must be a string'],
    ['a nested missing field', { name: 'a', settings: {} }, 'settings.region', 'settings.region is required'],
  ])('names the field of %s', (_case, input, field, message) => {
    expect(failureOf(input)).toEqual({ field, message });
  });

  it("keeps a schema's own message as it stands", () => {
    expect(failureOf({ name: 'a', branch: 'my branch' })).toEqual({
      field: 'branch',
      message: 'branch branch must not contain spaces',
    });
  });

  it('names the part of the request when the whole of it is wrong', () => {
    expect(failureOf('not an object', Body, 'query')).toEqual({
      field: 'query',
      message: 'query must be an object',
    });
  });

  it('refuses a lone surrogate in a value, naming its field', () => {
    expect(failureOf({ name: 'a', settings: { region: 'eu\ud800' } })).toEqual({
      field: 'settings.region',
      message: 'settings.region must be well-formed Unicode text',
    });
  });

  it('refuses a lone surrogate in a key, naming the object that holds it', () => {
    expect(failureOf({ name: 'a', settings: { '\udc00': 'x' } })).toEqual({
      field: 'settings',
      message: 'settings must be well-formed Unicode text',
    });
    expect(failureOf({ '\udc00': 'x' })).toEqual({
      field: 'body',
      message: 'body must be well-formed Unicode text',
    });
  });

  it('accepts text with proper surrogate pairs (emoji)', () => {
    expect(parseInput(Body, { name: '🚀' }, 'body')).toEqual({ name: '🚀' });
  });

  it('finds ill-formed text 100,000 levels down without running out of stack, and reports the first', () => {
    let deep: unknown = '\ud800';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const failure = failureOf({ name: 'a', tags: ['ok', 'x\udfff'], settings: deep });
    expect(failure).toEqual({ field: 'tags.1', message: 'tags.1 must be well-formed Unicode text' });
    expect(failureOf({ settings: deep }).field).toBe(`settings${'.0'.repeat(100_000)}`);
  });
});
