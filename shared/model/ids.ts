import { randomBytes } from 'node:crypto';
import { clock } from '#shared/runtime/clock.ts';

// ULIDs: 48 bits of milliseconds then 80 random bits, in Crockford base32. They sort by creation
// time as strings, so "newest first" is the key order of a DynamoDB query. Within one millisecond
// the random part is incremented, so ids made by one process never sort out of order.

/**
 * The longest id a client may name, in a path, a query or a body: ours are a prefix and 26
 * characters, so a longer one names nothing, and is refused (400) before anything is looked up.
 */
export const ID_MAX_LENGTH = 64;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_CHARS = 16;

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(time: number): string {
  let out = '';
  let rest = time;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function freshRandom(): number[] {
  return Array.from(randomBytes(RANDOM_CHARS), (byte) => byte % 32);
}

function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    const digit = next[i] ?? 0;
    if (digit < 31) {
      next[i] = digit + 1;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

function ulid(): string {
  const time = clock.now();
  lastRandom = time === lastTime ? increment(lastRandom) : freshRandom();
  lastTime = time;
  return encodeTime(time) + lastRandom.map((digit) => ALPHABET.charAt(digit)).join('');
}

export const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export type IdPrefix =
  | 'prj'
  | 'dpl'
  | 'usr'
  | 'key'
  | 'whk'
  | 'wdl'
  | 'env'
  | 'evs'
  | 'mov'
  | 'team'
  | 'inv'
  | 'aud';

export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid()}`;

/**
 * Whether a client's id has the form of one of ours with this prefix: an id of any other form is
 * answered 404 without a read.
 */
export const isIdOf = (prefix: IdPrefix, id: string): boolean =>
  id.startsWith(`${prefix}_`) && ID_PATTERN.test(id.slice(prefix.length + 1));

/** The millisecond an id of ours was made in (its first 10 characters after the prefix). */
export function timeOfId(id: string): number {
  const encoded = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let time = 0;
  for (const char of encoded) time = time * 32 + ALPHABET.indexOf(char);
  return time;
}

/**
 * The lowest (`first`) or highest (`last`) id of this prefix that a ULID made in millisecond `ms`
 * can have: a range of ids between two of these is a range of creation times (the audit log's
 * `since` and `until`).
 */
export const idAtTime = (prefix: IdPrefix, ms: number, edge: 'first' | 'last'): string =>
  `${prefix}_${encodeTime(Math.max(0, ms))}${(edge === 'first' ? '0' : 'Z').repeat(RANDOM_CHARS)}`;
