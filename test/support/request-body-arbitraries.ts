import fc from 'fast-check';
import type { FieldValues } from './field-arbitraries.ts';

/** A request body's fields as its zod `strictObject` declares them. */
export type BodyShape = Record<string, { values: FieldValues; required: boolean }>;

export interface ValidBody {
  /** What the client sends. */
  sent: Record<string, string>;
  /** What the API should keep of each field sent (trimmed, lower-cased...). */
  stored: Record<string, string>;
}

/** Bodies the schema accepts: every required field, each optional one present or absent. */
export function validBody(shape: BodyShape): fc.Arbitrary<ValidBody> {
  const fields = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, field.values.valid]));
  const required = Object.keys(shape).filter((name) => shape[name]?.required);
  return fc.record(fields, { requiredKeys: required }).map((values) => {
    const present = Object.entries(values).filter(
      (entry): entry is [string, { sent: string; stored: string }] => entry[1] !== undefined,
    );
    return {
      sent: Object.fromEntries(present.map(([name, value]) => [name, value.sent])),
      stored: Object.fromEntries(present.map(([name, value]) => [name, value.stored])),
    };
  });
}

export interface BrokenBody {
  body: Record<string, unknown>;
  /** The one field that is wrong: the `field` a 400 must name. */
  field: string;
}

/** A UTF-16 half on its own, as JSON's `\ud800` can spell it: not text. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Puts a lone surrogate between two code points of a valid value (never completing a pair). */
const illFormed = (valid: FieldValues['valid']) =>
  fc.tuple(valid, fc.nat(), loneSurrogate).map(([{ sent }, position, half]) => {
    const chars = [...sent];
    const at = position % (chars.length + 1);
    return [...chars.slice(0, at), half, ...chars.slice(at)].join('');
  });

/**
 * A valid body with exactly one field broken: given a value its rule refuses, or a valid value
 * made ill-formed text, left out when it is required, or joined by a field the schema does not know.
 */
export function bodyWithOneBadField(shape: BodyShape): fc.Arbitrary<BrokenBody> {
  const valid = validBody(shape).map((body) => body.sent);
  const badValues = Object.entries(shape).map(([field, { values }]) =>
    fc
      .tuple(
        valid,
        fc.oneof({ weight: 4, arbitrary: values.invalid }, { weight: 1, arbitrary: illFormed(values.valid) }),
      )
      .map(([body, bad]) => ({ body: { ...body, [field]: bad }, field })),
  );
  const missing = Object.entries(shape)
    .filter(([, { required }]) => required)
    .map(([field]) =>
      valid.map((body) => ({
        body: Object.fromEntries(Object.entries(body).filter(([name]) => name !== field)),
        field,
      })),
    );
  const unknownField = fc
    .tuple(
      valid,
      fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
        .filter((name) => !Object.hasOwn(shape, name)),
      fc.jsonValue({ maxDepth: 2, stringUnit: 'grapheme' }),
    )
    .map(([body, field, value]) => ({ body: { ...body, [field]: value }, field }));
  return fc.oneof(...badValues, ...missing, unknownField);
}
