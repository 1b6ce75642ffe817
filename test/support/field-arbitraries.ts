import { randomBytes } from 'node:crypto';
import fc from 'fast-check';

// Values for each request field, valid and invalid, written from the rules in shared/schemas/*.ts
// and shared/model/deployments/branch-name.ts rather than by calling them: a generator that asked the schema
// what is valid could never find a value the schema wrongly refuses. Each invalid value breaks
// exactly one rule, whatever the rest of the body holds.

const codeOf = (char: string): number => char.codePointAt(0) ?? 0;
const isControl = (char: string): boolean => codeOf(char) < 0x20 || codeOf(char) === 0x7f;
const isSpace = (char: string): boolean => /\s/.test(char);
const hasControl = (text: string): boolean => [...text].some(isControl);

/** One printable character: mostly ASCII, sometimes anything Unicode calls a grapheme (emoji, accents, CJK). */
const printable = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const printableExcept = (excluded: (char: string) => boolean) =>
  printable.filter((char) => ![...char].some(excluded));

/** Whitespace that String.prototype.trim removes (zod's `z.trim()`), control characters included. */
const padding = fc.string({
  unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\ufeff'),
  maxLength: 3,
});

/** Anything JSON can carry that is not a string. */
export const notAString: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

export interface FieldValues {
  /** Values the schema accepts, each with what the API should echo back for it. */
  valid: fc.Arbitrary<{ sent: string; stored: string }>;
  /** Values the schema refuses, for this field alone. */
  invalid: fc.Arbitrary<unknown>;
}

const same = (sent: string) => ({ sent, stored: sent });

/** Lengths at a limit or a few below it, the limit itself about half the time. */
const atMostNear = (limit: number) =>
  fc.oneof(fc.constant(limit), fc.integer({ min: limit - 5, max: limit }));
/** Lengths just past a limit, one past it about half the time. */
const justOver = (limit: number) =>
  fc.oneof(fc.constant(limit + 1), fc.integer({ min: limit + 1, max: limit + 5 }));

/**
 * Strings of `unit` with a length (in units) drawn from `lengths`: values at a limit, which
 * free-size strings rarely reach in a few dozen runs.
 */
const ofLength = (unit: fc.Arbitrary<string> | 'grapheme-ascii' | 'binary', lengths: fc.Arbitrary<number>) =>
  lengths.chain((length) => fc.string({ unit, minLength: length, maxLength: length }));
const asciiExcept = (excluded: string) =>
  fc
    .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })
    .filter((c) => !isSpace(c) && !excluded.includes(c));

/** A short run of printable characters without whitespace (at most 40 UTF-16 units). */
const word = fc
  .string({ unit: printableExcept(isSpace), minLength: 1, maxLength: 20 })
  .filter((w) => w.length <= 40);
const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f))
  .map((code) => String.fromCharCode(code));

// name (projects.ts, auth.ts): trimmed, then 1 to 100 UTF-16 units without control characters.
const nameCore = fc
  .oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 100 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    ofLength('grapheme-ascii', atMostNear(100)),
  )
  .filter((core) => core.trim().length >= 1 && core.trim().length <= 100 && !hasControl(core.trim()));

export const displayName: FieldValues = {
  valid: fc.tuple(padding, nameCore, padding).map(([before, core, after]) => {
    const sent = `${before}${core}${after}`;
    return { sent, stored: sent.trim() };
  }),
  invalid: fc.oneof(
    notAString,
    padding, // empty once trimmed
    ofLength(asciiExcept(''), justOver(100)),
    fc.string({ unit: printableExcept(isSpace), minLength: 101, maxLength: 140 }),
    fc.tuple(word, controlCharacter, word).map(([before, control, after]) => `${before}${control}${after}`),
  ),
};

// email (auth.ts): trimmed and lower-cased, at most 254 characters, `local@label.label...` where
// no part holds whitespace or '@' and labels hold no dots.
const localPart = fc.string({
  unit: printableExcept((c) => isSpace(c) || c === '@'),
  minLength: 1,
  maxLength: 40,
});
const label = fc.string({
  unit: printableExcept((c) => isSpace(c) || c === '@' || c === '.'),
  minLength: 1,
  maxLength: 20,
});
const domain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.'));

const MAX_EMAIL_LENGTH = 254;
/** Room kept in every valid address for the prefix `uniquely` adds: 16 hex digits and a dot. */
const PREFIX_ROOM = 17;
/** ASCII addresses whose length (before the prefix) lands the prefixed address at the limit or just below. */
const longAddress = fc
  .tuple(atMostNear(MAX_EMAIL_LENGTH - PREFIX_ROOM), asciiExcept('@.'))
  .map(([length, letter]) => `${letter.repeat(length - 7)}@ex.com`);

/**
 * The generated part of an address; the test puts a fresh unique prefix before it (`uniquely`),
 * because a registered address cannot register twice and generators repeat values.
 */
export const email: FieldValues = {
  valid: fc
    .tuple(
      padding,
      fc.oneof(
        fc.tuple(localPart, domain).map(([local, host]) => `${local}@${host}`),
        longAddress,
      ),
      padding,
    )
    .map(([before, address, after]) => {
      const sent = `${before}${address}${after}`;
      return { sent, stored: sent.trim().toLowerCase() };
    }),
  invalid: fc.oneof(
    notAString,
    fc.constant(''),
    fc.tuple(localPart, domain).map(([local, host]) => `${local}${host}`), // no @
    fc.tuple(localPart, label).map(([local, host]) => `${local}@${host}`), // one label
    fc.tuple(localPart, label, label).map(([local, a, b]) => `${local}@${a}..${b}`), // empty label
    fc.tuple(localPart, localPart, domain).map(([a, b, host]) => `${a}@${b}@${host}`), // two @
    fc.tuple(localPart, domain).map(([local, host]) => `${local} x@${host}`), // inner space
    justOver(MAX_EMAIL_LENGTH).map((length) => `${'a'.repeat(length - 6)}@ex.io`),
  ),
};

/** A prefix no other address has, for `uniquely`. */
export const uniquePrefix = (): string => randomBytes(8).toString('hex');

/** Puts `prefix.` before the local part of a generated address, keeping it valid. */
export const uniquely = (address: string, prefix: string): string =>
  address.replace(/^(\s*)/, `$1${prefix}.`);

// password (auth.ts): 8 to 256 characters counted as code points, anything at all.
export const password: FieldValues = {
  valid: fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 8, maxLength: 256 }),
      ofLength('binary', fc.oneof(fc.constant(8), fc.integer({ min: 8, max: 12 }))),
      ofLength('binary', atMostNear(256)),
    )
    .map(same),
  invalid: fc.oneof(
    notAString,
    ofLength('binary', fc.oneof(fc.constant(7), fc.integer({ min: 0, max: 7 }))),
    ofLength('binary', justOver(256)),
    fc.string({ unit: 'binary', minLength: 257, maxLength: 300 }),
  ),
};

// repository (projects.ts): an https URL or owner/name, at most 2048 characters.
const slugPart = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-'),
  minLength: 1,
  maxLength: 39,
});
const urlRest = fc.string({ unit: printableExcept(isSpace), maxLength: 120 });
const urlStart = printableExcept((c) => isSpace(c) || '/$.?#'.includes(c));

export const repository: FieldValues = {
  valid: fc
    .oneof(
      fc.tuple(slugPart, slugPart).map(([owner, name]) => `${owner}/${name}`),
      fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
      fc.tuple(urlStart, urlRest).map(([start, rest]) => `https://${start}${rest}`),
      atMostNear(2048).map((length) => `https://example.com/${'r'.repeat(length - 20)}`),
    )
    .filter((value) => value.length <= 2048)
    .map(same),
  invalid: fc.oneof(
    notAString,
    fc.constant(''),
    slugPart, // no slash
    fc.tuple(slugPart, slugPart, slugPart).map(([a, b, c]) => `${a}/${b}/${c}`),
    fc.tuple(slugPart, slugPart).map(([owner, name]) => `${owner} /${name}`),
    fc.tuple(urlStart, urlRest).map(([start, rest]) => `http://${start}${rest}`),
    fc
      .tuple(fc.constantFrom('/', '$', '.', '?', '#', ' '), urlRest)
      .map(([bad, rest]) => `https://${bad}${rest}`),
    justOver(2048).map((length) => `https://${'a'.repeat(length - 8)}`),
  ),
};

// branch (common.ts BranchName → model/deployments/branch-name.ts): git-check-ref-format(1) --branch, at
// most 255 characters. Components are split on '/'.
const FORBIDDEN = ' ~^:?*[\\';
const componentChar = printableExcept((c) => isControl(c) || FORBIDDEN.includes(c) || c === '/');
const component = fc
  .string({ unit: componentChar, minLength: 1, maxLength: 40 })
  .filter(
    (part) =>
      !part.startsWith('.') && !part.endsWith('.lock') && !part.includes('..') && !part.includes('@{'),
  );
const MAX_BRANCH_LENGTH = 255;
const alphanumeric = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
/** Names of alphanumeric components at the length limit or just below it. */
const longBranch = fc
  .tuple(
    atMostNear(MAX_BRANCH_LENGTH),
    fc.array(fc.string({ unit: alphanumeric, minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 12 }),
  )
  .map(([length, parts]) => parts.join('/').padEnd(length, 'x').slice(0, length))
  .filter((name) => !name.endsWith('/'));
const validBranch = fc.oneof(
  fc
    .array(component, { minLength: 1, maxLength: 6 })
    .map((parts) => parts.join('/'))
    .filter(
      (name) =>
        name.length <= MAX_BRANCH_LENGTH && !name.startsWith('-') && !name.endsWith('.') && name !== '@',
    ),
  longBranch,
);

/** Inserts between code points, never inside a surrogate pair. */
const insertAt = (text: string, position: number, inserted: string): string => {
  const chars = [...text];
  const at = Math.min(position, chars.length);
  return [...chars.slice(0, at), inserted, ...chars.slice(at)].join('');
};
export const branch: FieldValues = {
  valid: validBranch.map(same),
  invalid: fc.oneof(
    notAString,
    fc.constantFrom('', '@'),
    fc
      .tuple(
        validBranch,
        fc.nat(),
        fc.oneof(fc.constantFrom(...FORBIDDEN, '..', '@{', '//'), controlCharacter),
      )
      .map(([name, at, bad]) => insertAt(name, at, bad)),
    fc.tuple(validBranch, fc.constantFrom('-', '/', '.')).map(([name, prefix]) => `${prefix}${name}`),
    fc.tuple(validBranch, fc.constantFrom('/', '.', '.lock')).map(([name, suffix]) => `${name}${suffix}`),
    justOver(MAX_BRANCH_LENGTH).map((length) => 'b'.repeat(length)),
  ),
};

// projectId (deployments.ts): 1 to 64 UTF-16 units, checked for existence by the domain.
export const projectId: FieldValues = {
  valid: fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }),
      ofLength('grapheme-ascii', atMostNear(64)),
    )
    .filter((id) => id.length <= 64)
    .map(same),
  invalid: fc.oneof(notAString, fc.constant(''), ofLength('grapheme-ascii', justOver(64))),
};

/** A deployment's `target`: one of two words, exactly (no case folding, no padding). */
export const deploymentTarget: FieldValues = {
  valid: fc.constantFrom('production', 'preview').map(same),
  invalid: fc.oneof(notAString, fc.constantFrom('', 'Production', 'prod', ' preview', 'development')),
};
