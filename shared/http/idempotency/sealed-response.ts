import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { StoredResponse } from '#shared/db/idempotency.ts';

// An idempotent POST's first answer is kept for a day so that a retry gets it again, and some
// answers hold a secret shown once (a new API key, a webhook's signing secret). The record is
// therefore sealed with the one thing only the client has: its Idempotency-Key. The record's id is
// a digest of its owner (the user and the credential, shared/http/idempotency/idempotent.ts) and the key, and
// its body is encrypted (AES-256-GCM) with a key derived from the Idempotency-Key. A retry carrying the key opens it; anyone reading the table (a compromised
// function, a backup) sees neither the key nor the answer. A client's key is as strong as the
// client makes it: a random UUID (122 bits) is what docs/api.md asks for.

const INFO = 'platform-api idempotency response v1';

/** The record's id: its owner and the key, neither recoverable from it. */
export const recordIdOf = (owner: string, idempotencyKey: string): string =>
  createHash('sha256').update(`${owner}\n${idempotencyKey}`).digest('base64url');

const sealingKey = (owner: string, idempotencyKey: string): Buffer =>
  Buffer.from(hkdfSync('sha256', idempotencyKey, owner, INFO, 32));

/** The answer with its body encrypted: `<iv>.<tag>.<ciphertext>`, base64url. */
export function seal(response: StoredResponse, owner: string, idempotencyKey: string): StoredResponse {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(owner, idempotencyKey), iv);
  const sealed = Buffer.concat([cipher.update(response.body, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'));
  return { ...response, body: parts.join('.') };
}

/** The answer as it was first sent; throws when the record was not sealed with this key. */
export function open(response: StoredResponse, owner: string, idempotencyKey: string): StoredResponse {
  const [iv, tag, sealed] = response.body.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !sealed) throw new Error('Idempotency record is not sealed');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(owner, idempotencyKey), iv);
  decipher.setAuthTag(tag);
  return { ...response, body: Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8') };
}
