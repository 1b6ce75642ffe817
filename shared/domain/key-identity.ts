import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import type { KeyRecord, TokenTeam } from '#shared/db/keys/api-keys.ts';
import { secretVersions } from '#shared/runtime/secrets.ts';
import { variable } from '#shared/runtime/variables.ts';

// What a key may do is decided by fields of its item: owner, role, scopes, expiry and allowance.
// Every keyed function must update that item (admission counts requests on it), and IAM cannot
// let a function update some attributes while its one UpdateItem reads the owner and role back
// (a policy on `dynamodb:Attributes` also judges the attributes a call returns). So the fields
// are signed instead: with an Ed25519 key that only the key-issuing functions (login, create-key)
// can read, verified by admission with the public key alone. A compromised counting function can
// still reset a counter, but cannot give a key to someone else, raise its role, scopes or
// allowance, or extend its life: the item no longer matches its signature and admits nothing.
//
// The seed can be rotated without a window of refused keys (README, Rotating the key-signing seed):
// verifiers accept the current and the previous public key, each signature names the key it was
// made with, and issuers sign with the new seed only once its public key is published. A key
// signed with a seed two rotations old names a key no longer published: 401, its owner logs in.

/** The signed fields of a key's item. The digest binds them to that one item. */
export interface KeyIdentity {
  keyHash: string;
  keyId: string;
  userId: string;
  role: string;
  scopes: readonly string[];
  expiresAt: number;
  rateLimit?: number;
  /** A team token's team and limits: signed too, so no counting write can widen them. */
  team?: TokenTeam;
}

/**
 * The variable that carries the published public keys (base64 SPKI DER, comma-separated, newest
 * first): at most the current seed's and the previous one's. Not a secret. Verifiers accept any of
 * them; issuers sign only with a seed whose public key is among them.
 */
export const PUBLIC_KEYS_VARIABLE = 'KEY_SIGNING_PUBLIC_KEYS';

const canonical = (identity: KeyIdentity): Buffer => {
  const fields = [
    identity.keyHash,
    identity.keyId,
    identity.userId,
    identity.role,
    [...identity.scopes].sort(),
    identity.expiresAt,
    identity.rateLimit ?? null,
  ];
  const { team } = identity;
  // A user's key signs what it always has (its signature from before teams still verifies); a team
  // token signs its team and limits as well, under a version of its own.
  const message = team
    ? [
        'key-identity/2',
        ...fields,
        team.teamId,
        team.partition,
        team.projectIds === null ? null : [...team.projectIds].sort(),
        [...team.targets].sort(),
      ]
    : ['key-identity/1', ...fields];
  return Buffer.from(JSON.stringify(message), 'utf8');
};

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A public key's id, which every signature names: the first 8 bytes of its SPKI's SHA-256, base64url. */
export const keyIdOf = (spki: string): string =>
  createHash('sha256').update(Buffer.from(spki, 'base64')).digest().subarray(0, 8).toString('base64url');

/**
 * The key pair a seed stands for. The seed secret is any string (Secrets Manager generates it); its
 * SHA-256 digest is the Ed25519 seed, so the stack never handles key material itself.
 */
export function keyPairOfSeed(seed: string): { privateKey: KeyObject; publicKey: string; keyId: string } {
  const raw = createHash('sha256').update(seed, 'utf8').digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** The value of PUBLIC_KEYS_VARIABLE for these seeds, newest first (the custom resource's answer). */
export const publishedKeysOf = (seeds: readonly string[]): string =>
  seeds.map((seed) => keyPairOfSeed(seed).publicKey).join(',');

type KeyPair = ReturnType<typeof keyPairOfSeed>;

/** Key pairs by seed: a container sees one or two seeds in its life. */
const pairs = new Map<string, KeyPair>();
const pairOf = (seed: string): KeyPair => {
  let pair = pairs.get(seed);
  if (!pair) {
    if (pairs.size >= 4) pairs.clear();
    pair = keyPairOfSeed(seed);
    pairs.set(seed, pair);
  }
  return pair;
};

/**
 * The seed to sign with: the current one if its public key is published, else the previous one.
 * Right after `put-secret-value` the new seed is current but its key is not yet published (the
 * deploy does that), so issuers keep signing with the old seed until every verifier can check the
 * new one. Asks Secrets Manager again once before it gives up.
 */
async function signingPair(): Promise<KeyPair> {
  const published = publishedKeys();
  for (const refresh of [false, true]) {
    const { current, previous } = await secretVersions('keySigningSeed', { refresh });
    for (const seed of previous === undefined ? [current] : [current, previous]) {
      const pair = pairOf(seed);
      if (published.has(pair.keyId)) return pair;
    }
  }
  throw new Error(
    `Neither the current nor the previous key-signing seed has its public key in ${PUBLIC_KEYS_VARIABLE}: the seed was rotated twice without a deploy (README, Rotating the key-signing seed)`,
  );
}

/** Signs a new key's identity; only functions given the seed secret can. The signature names its key. */
export async function signIdentity(identity: KeyIdentity): Promise<string> {
  const pair = await signingPair();
  return `${pair.keyId}.${sign(null, canonical(identity), pair.privateKey).toString('base64url')}`;
}

let verifyingKeys: { variable: string; keys: Map<string, KeyObject> } | undefined;

/** The published public keys by id, read from the environment (parsed again only if it changes). */
function publishedKeys(): Map<string, KeyObject> {
  const published = variable(PUBLIC_KEYS_VARIABLE);
  if (!published) throw new Error(`Missing required environment variable ${PUBLIC_KEYS_VARIABLE}`);
  if (verifyingKeys?.variable !== published) {
    const keys = new Map<string, KeyObject>();
    for (const spki of published.split(',')) {
      keys.set(
        keyIdOf(spki),
        createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' }),
      );
    }
    verifyingKeys = { variable: published, keys };
  }
  return verifyingKeys.keys;
}

/**
 * Identities this container has verified (fields and signature together). A warm container sees the
 * same few keys again and again, and a verify costs about 0.2 ms; the answer for the same bytes and
 * published keys never changes. Bounded: emptied when full.
 */
const verified = new Set<string>();
const VERIFIED_MAX = 1_000;

/**
 * Whether an item's fields are the ones its key was issued with, signed by a published key. A
 * signature names its key (`<keyId>.<signature>`); one from before keys were named is tried
 * against each published key.
 */
export function identityIsGenuine(identity: KeyIdentity, signature: unknown): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  const message = canonical(identity);
  const keys = publishedKeys();
  const dot = signature.indexOf('.');
  const candidates = dot < 0 ? [...keys.values()] : [keys.get(signature.slice(0, dot))];
  const bytes = Buffer.from(dot < 0 ? signature : signature.slice(dot + 1), 'base64url');
  const seen = `${verifyingKeys?.variable}\n${signature}\n${message.toString('utf8')}`;
  if (verified.has(seen)) return true;
  const genuine = candidates.some((key) => key !== undefined && verify(null, message, key, bytes));
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
  ...(record.team === undefined ? {} : { team: record.team }),
});

/** Whether a stored record's owner, role, scopes, expiry and allowance are those it was issued with. */
export const recordIsGenuine = (record: KeyRecord): boolean =>
  identityIsGenuine(identityOf(record), record.identitySignature);
