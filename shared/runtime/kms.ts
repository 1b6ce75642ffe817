import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { clock } from './clock.ts';
import { requestDeadline } from './deadline.ts';

// The two KMS actions the service uses (GenerateDataKey and Decrypt), in KMS's JSON protocol, signed
// with Signature Version 4 by hand: no KMS client in the bundles, which only need these two calls.
// Credentials come from the same chain as the DynamoDB client's (in the Lambda bundles, the small
// chain of infra/lambda/credentials.ts, which esbuild puts in its place). `KMS_ENDPOINT` points the
// calls elsewhere (the tests' stand-in on loopback); by default, the regional endpoint.

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

let credentials: (() => Promise<Credentials>) | undefined;

/** Each attempt's limit; a request's deadline ends it sooner. */
const ATTEMPT_TIMEOUT_MS = 2_000;
const ATTEMPTS = 2;

const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** The headers of a Signature Version 4 signed POST of `body` (exported for the tests' stand-in check). */
export function signedHeaders(
  url: URL,
  headers: Record<string, string>,
  body: string,
  who: Credentials & { region: string; service: string; now: number },
): Record<string, string> {
  const amzDate = new Date(who.now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const all: Record<string, string> = {
    ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    host: url.host,
    'x-amz-date': amzDate,
    ...(who.sessionToken ? { 'x-amz-security-token': who.sessionToken } : {}),
  };
  const names = Object.keys(all).sort();
  const canonical = [
    'POST',
    url.pathname || '/',
    '',
    names.map((name) => `${name}:${String(all[name]).trim()}\n`).join(''),
    names.join(';'),
    sha256(body),
  ].join('\n');
  const scope = `${day}/${who.region}/${who.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${who.secretAccessKey}`, day), who.region), who.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  const { host: _host, ...sent } = all;
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${who.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

class KmsError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

async function callKms<T>(action: 'GenerateDataKey' | 'Decrypt', input: Record<string, unknown>): Promise<T> {
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const url = new URL(process.env.KMS_ENDPOINT ?? `https://kms.${region}.amazonaws.com/`);
  const body = JSON.stringify(input);
  credentials ??= defaultProvider() as () => Promise<Credentials>;
  for (let attempt = 1; ; attempt++) {
    try {
      const identity = await credentials();
      const headers = signedHeaders(
        url,
        { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${action}` },
        body,
        { ...identity, region, service: 'kms', now: clock.now() },
      );
      const deadline = requestDeadline();
      const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: deadline ? AbortSignal.any([deadline, timeout]) : timeout,
      });
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok) return answer as T;
      const type = String(answer.__type ?? 'unknown').replace(/^.*#/, '');
      throw new KmsError(
        `KMS ${action} answered ${response.status} (${type})`,
        response.status >= 500 || type === 'ThrottlingException',
      );
    } catch (error) {
      const retryable = error instanceof KmsError ? error.retryable : !requestDeadline()?.aborted;
      if (!retryable || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** A new AES-256 data key: in plaintext, and encrypted under `keyId` bound to `context`. */
export async function generateDataKey(
  keyId: string,
  context: Record<string, string>,
): Promise<{ plaintext: Buffer; encrypted: Buffer }> {
  const answer = await callKms<{ Plaintext?: string; CiphertextBlob?: string }>('GenerateDataKey', {
    KeyId: keyId,
    KeySpec: 'AES_256',
    EncryptionContext: context,
  });
  if (!answer.Plaintext || !answer.CiphertextBlob) throw new Error('KMS GenerateDataKey gave no key');
  return {
    plaintext: Buffer.from(answer.Plaintext, 'base64'),
    encrypted: Buffer.from(answer.CiphertextBlob, 'base64'),
  };
}

/** A data key back from its encrypted form; KMS refuses it unless `context` is the one it was made with. */
export async function decryptDataKey(
  keyId: string,
  encrypted: Buffer,
  context: Record<string, string>,
): Promise<Buffer> {
  const answer = await callKms<{ Plaintext?: string }>('Decrypt', {
    KeyId: keyId,
    CiphertextBlob: encrypted.toString('base64'),
    EncryptionContext: context,
  });
  if (!answer.Plaintext) throw new Error('KMS Decrypt gave no key');
  return Buffer.from(answer.Plaintext, 'base64');
}
