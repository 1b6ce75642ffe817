import { AwsJsonClient } from './aws-json-client.ts';

// The two KMS actions the service uses (GenerateDataKey and Decrypt), in KMS's JSON protocol, with
// the SDK's signer, HTTP handler, retries and endpoint configuration (./aws-json-client.ts):
// `AWS_ENDPOINT_URL_KMS` points them elsewhere (the tests' stand-in on loopback), as it would a KMS
// client; by default, the region's endpoint.

/** Built at first use: only the functions that seal or open values call KMS. */
let client: AwsJsonClient | undefined;

const kms = (): AwsJsonClient =>
  (client ??= new AwsJsonClient({
    signingName: 'kms',
    serviceId: 'KMS',
    target: 'TrentService',
    jsonVersion: '1.1',
    // One retry, as the store's reads get: each attempt may take 2 s of the request's 3.
    maxAttempts: 2,
    attemptLimits: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  }));

/** A new AES-256 data key: in plaintext, and encrypted under `keyId` bound to `context`. */
export async function generateDataKey(
  keyId: string,
  context: Record<string, string>,
): Promise<{ plaintext: Buffer; encrypted: Buffer }> {
  const answer = await kms().call<{ Plaintext?: string; CiphertextBlob?: string }>('GenerateDataKey', {
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
  const answer = await kms().call<{ Plaintext?: string }>('Decrypt', {
    KeyId: keyId,
    CiphertextBlob: encrypted.toString('base64'),
    EncryptionContext: context,
  });
  if (!answer.Plaintext) throw new Error('KMS Decrypt gave no key');
  return Buffer.from(answer.Plaintext, 'base64');
}
