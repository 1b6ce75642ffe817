import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signedHeaders } from '#shared/webhooks/signer.ts';

// Signatures are made with node:crypto; the reference implementation of Standard Webhooks, as a
// receiver would use it, is what judges them.

// Now: the verifier refuses a timestamp more than five minutes away from its clock.
const at = new Date();
const body = JSON.stringify({ type: 'deployment.ready', data: { id: 'dpl_1', name: 'ünïcode ✓' } });

describe('webhook signatures', () => {
  it("verify with the standardwebhooks library's verifier", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders(secret, 'msg_1', body, at);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('match the library’s own signature of the same message', () => {
    const secret = newWebhookSecret();
    const seconds = new Date(Math.floor(at.getTime() / 1000) * 1000);
    expect(signedHeaders(secret, 'msg_2', body, at)['webhook-signature']).toBe(
      new Webhook(secret).sign('msg_2', seconds, body),
    );
  });

  it('do not verify for another body, another secret, or another message id', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders(secret, 'msg_3', body, at);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'msg_4' })).toThrow();
  });
});
