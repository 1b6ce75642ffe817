import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

// Password hashing with argon2id from node:crypto at OWASP's parameters (19 MiB, 2 passes,
// parallelism 1). Hashes are PHC strings that carry their parameters, so the parameters can be
// raised later: `needsRehash` tells login to store a new hash on the next successful sign-in.

const argon2Async = promisify(argon2);

export interface Argon2Parameters {
  memoryKiB: number;
  passes: number;
  parallelism: number;
}

export const CURRENT: Argon2Parameters = { memoryKiB: 19_456, passes: 2, parallelism: 1 };
const TAG_BYTES = 32;
const SALT_BYTES = 16;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

const b64 = (buffer: Buffer): string => buffer.toString('base64').replace(/=+$/, '');

async function derive(
  password: string,
  salt: Buffer,
  params: Argon2Parameters,
  tagLength: number,
): Promise<Buffer> {
  return argon2Async('argon2id', {
    message: password,
    nonce: salt,
    parallelism: params.parallelism,
    tagLength,
    memory: params.memoryKiB,
    passes: params.passes,
  });
}

export async function hashPassword(password: string, params: Argon2Parameters = CURRENT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const tag = await derive(password, salt, params, TAG_BYTES);
  return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(tag)}`;
}

function parse(encoded: string): { params: Argon2Parameters; salt: Buffer; tag: Buffer } | undefined {
  const match = PHC.exec(encoded);
  if (!match) return undefined;
  const [, m, t, p, salt, tag] = match;
  return {
    params: { memoryKiB: Number(m), passes: Number(t), parallelism: Number(p) },
    salt: Buffer.from(salt ?? '', 'base64'),
    tag: Buffer.from(tag ?? '', 'base64'),
  };
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parse(encoded);
  if (!parsed) return false;
  const tag = await derive(password, parsed.salt, parsed.params, parsed.tag.length);
  return timingSafeEqual(tag, parsed.tag);
}

/** True when a stored hash was made with other parameters than today's. */
export function needsRehash(encoded: string, params: Argon2Parameters = CURRENT): boolean {
  const parsed = parse(encoded);
  return (
    !parsed ||
    parsed.params.memoryKiB !== params.memoryKiB ||
    parsed.params.passes !== params.passes ||
    parsed.params.parallelism !== params.parallelism
  );
}
