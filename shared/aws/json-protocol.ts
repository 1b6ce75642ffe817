import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

// A signed call of an AWS "JSON protocol" action (SQS, DynamoDB Streams): one POST with an
// `X-Amz-Target`, signed with the SDK's own SigV4 signer. For the few actions whose client package
// this project does not have; each caller says which endpoint and credentials to use.

/** SHA-256, or HMAC-SHA-256 with a secret: the hash the signer asks for, from node:crypto. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(toBuffer(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

function toBuffer(data: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface JsonService {
  /** The signing name: `sqs`, `dynamodb`. */
  service: string;
  region: string;
  /** `https://sqs.<region>.amazonaws.com`, or a local endpoint. */
  endpoint: string;
  /** `AmazonSQS`, `DynamoDBStreams_20120810`. */
  targetPrefix: string;
  credentials: AwsCredentials | (() => Promise<AwsCredentials>);
  timeoutMs?: number;
}

/** Builds the caller of one service: `call(action, input)` answers the action's JSON output. */
export function jsonService(service: JsonService) {
  const signer = new SignatureV4({
    service: service.service,
    region: service.region,
    credentials: service.credentials,
    sha256: Sha256,
  });
  const url = new URL(service.endpoint);
  return async (action: string, input: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const body = JSON.stringify(input);
    const signed = await signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: '/',
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${service.targetPrefix}.${action}`,
      },
      body,
    });
    const response = await fetch(`${url.origin}/`, {
      method: 'POST',
      headers: signed.headers,
      body,
      signal: AbortSignal.timeout(service.timeoutMs ?? 5_000),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    // The error's type only: its message may quote the request.
    if (!response.ok) {
      throw new Error(
        `${service.targetPrefix}.${action} failed: ${response.status} ${String(answer.__type)}`,
      );
    }
    return answer;
  };
}
