import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { checkAccess } from './access-check.ts';
import { decryptDataKey, generateDataKey } from './kms.ts';
import { variable } from './variables.ts';

// Envelope encryption of the values users store (environment variables): each value is encrypted
// with AES-256-GCM under a data key of its own, and the data key is kept encrypted beside it. In AWS
// the data key comes from KMS (GenerateDataKey under the stack's key, `ENVIRONMENT_KEY_ARN`) and only
// KMS can open it again (Decrypt, which only the build read is allowed). Locally
// (`ENVIRONMENT_SEALING_KEY`, 32 bytes in hex: `npm start` keeps one in DATA_DIR, random in memory
// mode) the data key is wrapped by the same cipher under that key. Either way the context (the
// project and the variable) is bound to both layers: a sealed value copied to another variable or
// project does not open.

export const KMS_KEY_VARIABLE = 'ENVIRONMENT_KEY_ARN';
export const LOCAL_KEY_VARIABLE = 'ENVIRONMENT_SEALING_KEY';

/** What a sealed value is bound to; every field must be given again to open it. */
export type SealingContext = Record<string, string>;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context as additional authenticated data: its fields in a fixed order. */
const aad = (context: SealingContext): Buffer =>
  Buffer.from(
    JSON.stringify(
      Object.keys(context)
        .sort()
        .map((name) => [name, context[name]]),
    ),
  );

function encrypt(key: Buffer, plaintext: Buffer, context: SealingContext): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(context));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function decrypt(key: Buffer, sealed: Buffer, context: SealingContext): Buffer {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

type Keeper = { kind: 'kms'; keyId: string } | { kind: 'local'; key: Buffer };

/** Read at each call: a function is given one of the two variables, by the stack or by the local run. */
function keeper(): Keeper {
  const keyId = variable(KMS_KEY_VARIABLE);
  if (keyId) return { kind: 'kms', keyId };
  const local = variable(LOCAL_KEY_VARIABLE);
  if (local && /^[0-9a-f]{64}$/i.test(local)) return { kind: 'local', key: Buffer.from(local, 'hex') };
  throw new Error(
    `Missing ${KMS_KEY_VARIABLE} (in AWS) or ${LOCAL_KEY_VARIABLE} (32 bytes in hex, locally): values cannot be sealed`,
  );
}

/**
 * Asks before each use of the key, as KMS asks IAM: the action, and the encryption context as its
 * condition keys (a grant may hold only for `type: plain`). The local key stands in for KMS, so it
 * is asked the same (shared/runtime/access-check.ts).
 */
function checkKeyUse(action: 'kms:GenerateDataKey' | 'kms:Decrypt', context: SealingContext): void {
  checkAccess({
    action,
    resource: { service: 'kms' },
    conditionKeys: Object.fromEntries(
      Object.entries(context).map(([name, value]) => [`kms:EncryptionContext:${name}`, value]),
    ),
  });
}

/** A value sealed under a fresh data key, as one string: `v1.<kms|local>.<data key>.<value>` (base64). */
export async function seal(value: string, context: SealingContext): Promise<string> {
  const kept = keeper();
  checkKeyUse('kms:GenerateDataKey', context);
  let dataKey: Buffer;
  let wrapped: Buffer;
  if (kept.kind === 'kms') {
    const generated = await generateDataKey(kept.keyId, context);
    dataKey = generated.plaintext;
    wrapped = generated.encrypted;
  } else {
    dataKey = randomBytes(32);
    wrapped = encrypt(kept.key, dataKey, context);
  }
  try {
    const body = encrypt(dataKey, Buffer.from(value, 'utf8'), context);
    return [VERSION, kept.kind, wrapped.toString('base64'), body.toString('base64')].join('.');
  } finally {
    dataKey.fill(0);
  }
}

/** A sealed value opened; throws when it was sealed under another key or another context. */
export async function unseal(sealed: string, context: SealingContext): Promise<string> {
  const [version, kind, wrapped, body] = sealed.split('.');
  if (version !== VERSION || !wrapped || !body || (kind !== 'kms' && kind !== 'local')) {
    throw new Error('Not a sealed value');
  }
  const kept = keeper();
  if (kept.kind !== kind) throw new Error(`A value sealed by ${kind} cannot be opened by ${kept.kind}`);
  checkKeyUse('kms:Decrypt', context);
  const dataKey =
    kept.kind === 'kms'
      ? await decryptDataKey(kept.keyId, Buffer.from(wrapped, 'base64'), context)
      : decrypt(kept.key, Buffer.from(wrapped, 'base64'), context);
  try {
    return decrypt(dataKey, Buffer.from(body, 'base64'), context).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

/** Runs `task` on every item, at most `limit` at a time, keeping their order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
