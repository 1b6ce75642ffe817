import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and 32
// random bytes in base64; each attempt is signed over `<webhook-id>.<webhook-timestamp>.<body>`,
// so a retry keeps its id and body and carries a fresh timestamp and signature.

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
  const seconds = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(seconds.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(messageId, seconds, body),
  };
}
