import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

// The two SQS actions the webhook functions use, over SQS's JSON protocol, signed with the SDK's
// own SigV4 signer. `@aws-sdk/client-sqs` is not a dependency of this project yet; once it is, this
// file becomes two SendMessage(Batch)Commands and nothing else changes.

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

const region = (): string => process.env.AWS_REGION ?? 'us-east-1';

let signer: SignatureV4 | undefined;
const signerOf = (): SignatureV4 => {
  signer ??= new SignatureV4({
    service: 'sqs',
    region: region(),
    credentials: defaultProvider(),
    sha256: Sha256,
  });
  return signer;
};

async function sqs(action: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hostname = `sqs.${region()}.amazonaws.com`;
  const body = JSON.stringify(input);
  const signed = await signerOf().sign({
    method: 'POST',
    protocol: 'https:',
    hostname,
    path: '/',
    headers: {
      host: hostname,
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `AmazonSQS.${action}`,
    },
    body,
  });
  const response = await fetch(`https://${hostname}/`, {
    method: 'POST',
    headers: signed.headers,
    body,
    signal: AbortSignal.timeout(5_000),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  // The error's type only: its message may quote the request.
  if (!response.ok) throw new Error(`SQS ${action} failed: ${response.status} ${String(answer.__type)}`);
  return answer;
}

export interface QueueEntry {
  body: string;
  delaySeconds: number;
}

/** Sends up to ten messages in one call; throws when any of them was not taken. */
export async function sendMessageBatch(queueUrl: string, entries: readonly QueueEntry[]): Promise<void> {
  const answer = await sqs('SendMessageBatch', {
    QueueUrl: queueUrl,
    Entries: entries.map((entry, index) => ({
      Id: String(index),
      MessageBody: entry.body,
      DelaySeconds: entry.delaySeconds,
    })),
  });
  const failed = Array.isArray(answer.Failed) ? answer.Failed.length : 0;
  if (failed > 0) throw new Error(`SQS SendMessageBatch: ${failed} of ${entries.length} messages not sent`);
}
