import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

// An API key: `plat_` (a user's key) or `platt_` (a team token) + 32 random base62 characters
// (190 bits) + a 6-character base62 CRC32 of what comes before it. The fixed prefixes make leaked
// keys greppable by secret scanners, and say whose a leaked one is; the checksum lets a scanner, and
// our middleware, reject a mistyped or invented key without a database call.

export const KEY_PREFIXES = { user: 'plat_', team: 'platt_' } as const;
export type KeyKind = keyof typeof KEY_PREFIXES;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(
  `^(${KEY_PREFIXES.user}|${KEY_PREFIXES.team})[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`,
);

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksumOf = (payload: string): string => toBase62(crc32(payload), CHECKSUM_LENGTH);

export function generateApiKey(kind: KeyKind = 'user'): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET.charAt(randomInt(62));
  const payload = KEY_PREFIXES[kind] + random;
  return payload + checksumOf(payload);
}

/** True when the string has the key's shape and a matching checksum; says nothing about validity. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const payload = candidate.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(payload) === candidate.slice(-CHECKSUM_LENGTH);
}

/** The only form in which a key is stored or looked up. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex');
