import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// Subscriptions as the stack checks them: WEBHOOKS_ALLOW_PRIVATE_TARGETS is never set there, so
// only https to public addresses is accepted. (The same check runs again at every delivery, on the
// address the socket connects to: test/unit/webhook-targets.test.ts.)

let gateway: TestGateway;
let restoreSettings: () => void;
beforeAll(async () => {
  restoreSettings = overrideSettings({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: '0' });
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

describe('webhook targets in the stack', () => {
  it.each([
    ['http://hooks.example.com/', 'must be an https URL'],
    ['https://localhost/hooks', 'is refused: localhost resolves to 127.0.0.1, a loopback'],
    ['https://10.0.0.7/hooks', 'is refused: 10.0.0.7, a loopback'],
    ['https://192.168.1.20/hooks', 'is refused: 192.168.1.20, a loopback'],
    [
      'https://169.254.169.254/latest/meta-data/',
      'is refused: 169.254.169.254, a link-local or metadata address',
    ],
    ['https://[::1]/hooks', 'is refused: ::1, a loopback'],
  ])('refuses %s with 400 naming url', async (url, message) => {
    const { key } = await newCaller();
    for (const request of [{ method: 'POST', json: { url, events: ['*'] } }]) {
      const response = await call(`${gateway.baseUrl}/webhooks`, { ...request, key });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'validation_error',
        field: 'url',
        message: expect.stringContaining(message),
      });
    }
  });

  it('refuses a change of url to an internal address as well', async () => {
    const { key } = await newCaller();
    const made = await call(`${gateway.baseUrl}/webhooks`, {
      method: 'POST',
      key,
      json: { url: 'https://93.184.216.34/hooks', events: ['*'] },
    });
    expect(made.status).toBe(201);
    const { webhook } = made.body as { webhook: { id: string } };
    const changed = await call(`${gateway.baseUrl}/webhooks/${webhook.id}`, {
      method: 'PATCH',
      key,
      json: { url: 'https://127.0.0.1/' },
    });
    expect(changed.status).toBe(400);
    expect(changed.body).toMatchObject({ field: 'url' });
  });
});
