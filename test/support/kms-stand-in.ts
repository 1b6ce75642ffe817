import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';

// A stand-in for KMS on loopback (there is no KMS emulator): it answers GenerateDataKey and Decrypt
// in KMS's JSON protocol (the `X-Amz-Target` header names the action), the two calls the service
// makes (shared/runtime/kms.ts). Data keys are encrypted under a master key of its own and bound to
// the key id and the encryption context, so a Decrypt with another context is refused as KMS refuses
// it. Every request's Signature Version 4 is checked with the SDK's own signer against the
// credentials it was given: a request the service signs wrongly is a 403, as KMS would answer, and
// one signed more than 5 minutes away from its clock (which `clockSkewMs` may set ahead or behind)
// a 400 InvalidSignatureException; every answer carries its clock in `Date`, as AWS's do.

export interface KmsCall {
  action: string;
  keyId: string;
  context: Record<string, string>;
}

export interface KmsStandIn {
  endpoint: string;
  calls: KmsCall[];
  /** Requests refused for their signature or its time, by the `__type` of the answer. */
  refused: string[];
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

/** How far a signature's time may be from KMS's clock. */
const ALLOWED_SKEW_MS = 5 * 60_000;

export async function startKmsStandIn(
  credentials: {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
    region: string;
  },
  options: { clockSkewMs?: number } = {},
): Promise<KmsStandIn> {
  const master = randomBytes(32);
  const calls: KmsCall[] = [];
  const refused: string[] = [];
  const now = () => Date.now() + (options.clockSkewMs ?? 0);
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
        response.writeHead(status, {
          'Content-Type': 'application/x-amz-json-1.1',
          Date: new Date(now()).toUTCString(),
        });
        response.end(JSON.stringify(body));
      };
      const refuse = (status: number, type: string, message: string) => {
        refused.push(type);
        answer(status, { __type: type, message });
      };
      const body = Buffer.concat(chunks).toString('utf8');
      const { port } = server.address() as AddressInfo;
      if (!(await signatureMatches(request.headers, body, port))) {
        return refuse(403, 'InvalidSignatureException', 'signature does not match');
      }
      const signedAt = Date.parse(
        String(request.headers['x-amz-date'] ?? '').replace(
          /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
          '$1-$2-$3T$4:$5:$6Z',
        ),
      );
      if (!(Math.abs(signedAt - now()) <= ALLOWED_SKEW_MS)) {
        return refuse(
          400,
          'InvalidSignatureException',
          'Signature expired: the request time is too far from the server time',
        );
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
    refused,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
