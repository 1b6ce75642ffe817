import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';

// A stand-in for KMS on loopback (there is no KMS emulator): it answers GenerateDataKey and Decrypt
// in KMS's JSON protocol (the `X-Amz-Target` header names the action), the two calls the service
// makes (shared/runtime/kms.ts). Data keys are encrypted under a master key of its own and bound to
// the key id and the encryption context, so a Decrypt with another context is refused as KMS refuses
// it. Every request's Signature Version 4 is checked with the SDK's own signer against the
// credentials it was given: a request the service signs wrongly is a 403, as KMS would answer.

export interface KmsCall {
  action: string;
  keyId: string;
  context: Record<string, string>;
}

export interface KmsStandIn {
  endpoint: string;
  calls: KmsCall[];
  close(): Promise<void>;
}

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** node:crypto's SHA-256 in the shape the SDK's signer takes. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const sortedContext = (context: Record<string, string>) =>
  JSON.stringify(
    Object.keys(context)
      .sort()
      .map((name) => [name, context[name]]),
  );

export async function startKmsStandIn(credentials: {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}): Promise<KmsStandIn> {
  const master = randomBytes(32);
  const calls: KmsCall[] = [];
  const signer = new SignatureV4({
    credentials,
    region: credentials.region,
    service: 'kms',
    sha256: Sha256,
    applyChecksum: false,
  });

  async function signatureMatches(
    headers: IncomingHttpHeaders,
    body: string,
    port: number,
  ): Promise<boolean> {
    const authorization = String(headers.authorization ?? '');
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
    const amzDate = String(headers['x-amz-date'] ?? '');
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const signed = await signer.sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: '127.0.0.1',
        port,
        path: '/',
        query: {},
        headers: Object.fromEntries(signedNames.map((name) => [name, String(headers[name] ?? '')])),
        body,
      },
      { signingDate },
    );
    return signed.headers.authorization === authorization;
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify(body));
      };
      const body = Buffer.concat(chunks).toString('utf8');
      const { port } = server.address() as AddressInfo;
      if (!(await signatureMatches(request.headers, body, port))) {
        return answer(403, { __type: 'InvalidSignatureException', message: 'signature does not match' });
      }
      const input = JSON.parse(body) as {
        KeyId: string;
        EncryptionContext?: Record<string, string>;
        CiphertextBlob?: string;
        KeySpec?: string;
      };
      const action = String(request.headers['x-amz-target']).replace('TrentService.', '');
      const context = input.EncryptionContext ?? {};
      calls.push({ action, keyId: input.KeyId, context });
      const aad = Buffer.from(`${input.KeyId}|${sortedContext(context)}`);
      if (action === 'GenerateDataKey' && input.KeySpec === 'AES_256') {
        const plaintext = randomBytes(32);
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aad);
        const blob = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
        return answer(200, {
          KeyId: input.KeyId,
          Plaintext: plaintext.toString('base64'),
          CiphertextBlob: blob.toString('base64'),
        });
      }
      if (action === 'Decrypt') {
        try {
          const blob = Buffer.from(input.CiphertextBlob ?? '', 'base64');
          const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12)).setAAD(aad);
          decipher.setAuthTag(blob.subarray(blob.length - 16));
          const plaintext = Buffer.concat([
            decipher.update(blob.subarray(12, blob.length - 16)),
            decipher.final(),
          ]);
          return answer(200, { KeyId: input.KeyId, Plaintext: plaintext.toString('base64') });
        } catch {
          return answer(400, { __type: 'InvalidCiphertextException', message: '' });
        }
      }
      return answer(400, { __type: 'UnsupportedOperationException', message: 'not served here' });
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    calls,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
