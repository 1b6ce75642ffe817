import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

export interface JsonServiceCaller {
  (action: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Closes its kept-alive connections (a local poller that stops; tests). */
  destroy(): void;
}

/** POSTs and reads the whole answer, on the caller's own connection pool. */
function post(
  url: URL,
  agent: HttpAgent,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: 'POST', headers, agent, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** Builds the caller of one service: `call(action, input)` answers the action's JSON output. */
export function jsonService(service: JsonService): JsonServiceCaller {
  const signer = new SignatureV4({
    service: service.service,
    region: service.region,
    credentials: service.credentials,
    sha256: Sha256,
  });
  const url = new URL(service.endpoint);
  const agent =
    url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const call = async (action: string, input: Record<string, unknown>): Promise<Record<string, unknown>> => {
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
    const response = await post(url, agent, signed.headers, body, service.timeoutMs ?? 5_000);
    const answer = (response.text ? JSON.parse(response.text) : {}) as Record<string, unknown>;
    // The error's type only: its message may quote the request.
    if (response.status < 200 || response.status >= 300) {
      throw new Error(
        `${service.targetPrefix}.${action} failed: ${response.status} ${String(answer.__type)}`,
      );
    }
    return answer;
  };
  return Object.assign(call, { destroy: () => agent.destroy() });
}
