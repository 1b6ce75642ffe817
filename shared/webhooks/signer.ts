import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and 32
// random bytes in base64; each attempt is signed over `<webhook-id>.<webhook-timestamp>.<body>`,
// so a retry keeps its id and body and carries a fresh timestamp and signature. Signed with
// node:crypto's HMAC: the `standardwebhooks` package would bring a JavaScript SHA-256 and base64
// (12 KB) into every bundle that signs. Its verifier checks these signatures in the tests.

const SECRET_PREFIX = 'whsec_';

/** A new signing secret, shown to its owner once. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The three Standard Webhooks headers for one attempt to deliver `body`. */
export function signedHeaders(
  secret: string,
  messageId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
