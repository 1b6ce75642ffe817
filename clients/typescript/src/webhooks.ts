import type { WebhookEvent } from './generated/operations.ts';

// Standard Webhooks verification (https://www.standardwebhooks.com), as the service signs: each
// attempt carries `webhook-id`, `webhook-timestamp` (epoch seconds) and `webhook-signature`, a
// space-separated list of `v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<raw body>`, keyed with
// the base64 after the secret's `whsec_`. Web Crypto only (Node, Deno, Bun, browsers, workers), and
// its `verify` compares in constant time.

/** How far a delivery's timestamp may be from now, either way: 5 minutes, as Standard Webhooks says. */
const TOLERANCE_SECONDS = 300;

/** A delivery that is not one the service signed with this secret, or not a recent one. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The headers of a request: a `Headers`, or a plain object as Node's `request.headers` is. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(' ') : (found as string | undefined);
};

const bytesOf = (base64: string): Uint8Array<ArrayBuffer> | undefined => {
  try {
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
};

/**
 * Checks a webhook delivery (its raw body, exactly as received, and its headers) against the
 * subscription's `whsec_` secret, and returns the event typed by its `type`. Throws a
 * `WebhookVerificationError` when a header is missing, the timestamp is more than 5 minutes from now,
 * or no signature of the header matches.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook headers');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('The webhook timestamp is more than 5 minutes from now');
  }
  const keyBytes = bytesOf(secret.replace(/^whsec_/, ''));
  if (!keyBytes) throw new WebhookVerificationError('The secret is not whsec_ and base64');
  const encoder = new TextEncoder();
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  let valid = false;
  // Every signature is checked (a receiver may hold several while a secret rotates); one is enough.
  for (const candidate of signatures.split(' ')) {
    const [version, value = ''] = candidate.split(',');
    const signature = version === 'v1' ? bytesOf(value) : undefined;
    if (signature && (await crypto.subtle.verify('HMAC', key, signature, signed))) valid = true;
  }
  if (!valid) throw new WebhookVerificationError('No matching webhook signature');
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The webhook body is not JSON');
  }
}
