import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import type { KeyRecord } from '#shared/db/api-keys.ts';
import { secretVersions } from '#shared/runtime/secrets.ts';

// What a key may do is decided by fields of its item: owner, role, scopes, expiry and allowance.
// Every keyed function must update that item (admission counts requests on it), and IAM cannot
// let a function update some attributes while its one UpdateItem reads the owner and role back
// (a policy on `dynamodb:Attributes` also judges the attributes a call returns). So the fields
// are signed instead: with an Ed25519 key that only the key-issuing functions (login, create-key)
// can read, verified by admission with the public key alone. A compromised counting function can
// still reset a counter, but cannot give a key to someone else, raise its role, scopes or
// allowance, or extend its life: the item no longer matches its signature and admits nothing.

/** The signed fields of a key's item. The digest binds them to that one item. */
export interface KeyIdentity {
  keyHash: string;
  keyId: string;
  userId: string;
  role: string;
  scopes: readonly string[];
  expiresAt: number;
  rateLimit?: number;
}

/** The variable that carries the public key (base64 SPKI DER): not a secret. */
export const PUBLIC_KEY_VARIABLE = 'KEY_SIGNING_PUBLIC_KEY';

const canonical = (identity: KeyIdentity): Buffer =>
  Buffer.from(
    JSON.stringify([
      'key-identity/1',
      identity.keyHash,
      identity.keyId,
      identity.userId,
      identity.role,
      [...identity.scopes].sort(),
      identity.expiresAt,
      identity.rateLimit ?? null,
    ]),
    'utf8',
  );

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The key pair a seed stands for. The seed secret is any string (Secrets Manager generates it); its
 * SHA-256 digest is the Ed25519 seed, so the stack never handles key material itself.
 */
export function keyPairOfSeed(seed: string): { privateKey: KeyObject; publicKey: string } {
  const raw = createHash('sha256').update(seed, 'utf8').digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
  return { privateKey, publicKey };
}

let signingKey: { seed: string; key: KeyObject } | undefined;

/** Signs a new key's identity; only functions given the seed secret can. */
export async function signIdentity(identity: KeyIdentity): Promise<string> {
  const { current } = await secretVersions('keySigningSeed');
  if (signingKey?.seed !== current) signingKey = { seed: current, key: keyPairOfSeed(current).privateKey };
  return sign(null, canonical(identity), signingKey.key).toString('base64url');
}

let verifyingKey: { spki: string; key: KeyObject } | undefined;

function publicKey(): KeyObject {
  const spki = process.env[PUBLIC_KEY_VARIABLE];
  if (!spki) throw new Error(`Missing required environment variable ${PUBLIC_KEY_VARIABLE}`);
  if (verifyingKey?.spki !== spki) {
    verifyingKey = {
      spki,
      key: createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' }),
    };
  }
  return verifyingKey.key;
}

/**
 * Identities this container has verified (fields and signature together). A warm container sees the
 * same few keys again and again, and a verify costs about 0.2 ms; the answer for the same bytes and
 * public key never changes. Bounded: emptied when full.
 */
const verified = new Set<string>();
const VERIFIED_MAX = 1_000;

/** Whether an item's fields are the ones its key was issued with. */
export function identityIsGenuine(identity: KeyIdentity, signature: unknown): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  const message = canonical(identity);
  const key = publicKey();
  const seen = `${verifyingKey?.spki}\n${signature}\n${message.toString('utf8')}`;
  if (verified.has(seen)) return true;
  const genuine = verify(null, message, key, Buffer.from(signature, 'base64url'));
  if (genuine) {
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.add(seen);
  }
  return genuine;
}

/** The signed fields of a stored key record, as stored. */
export const identityOf = (record: KeyRecord): KeyIdentity => ({
  keyHash: record.keyHash,
  keyId: record.keyId,
  userId: record.userId,
  role: record.role,
  scopes: record.scopes,
  expiresAt: record.expiresAt,
  ...(record.rateLimit === undefined ? {} : { rateLimit: record.rateLimit }),
});

/** Whether a stored record's owner, role, scopes, expiry and allowance are those it was issued with. */
export const recordIsGenuine = (record: KeyRecord): boolean =>
  identityIsGenuine(identityOf(record), record.identitySignature);
