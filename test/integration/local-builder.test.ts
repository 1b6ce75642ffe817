import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_BUILDER_DELAY_MS, localBuilderSettings, startLocalBuilder } from '#infra/local/builder.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// The opt-in local builder of `npm start`, on the test store with a short delay. It is given the
// test's owner, so deployments of suites running alongside are left alone.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(25);
  }
}

describe('local builder', () => {
  it('is on unless LOCAL_BUILDER=0, and takes its delay from LOCAL_BUILDER_DELAY_MS', () => {
    expect(localBuilderSettings({})).toMatchObject({ delayMs: DEFAULT_BUILDER_DELAY_MS });
    expect(localBuilderSettings({ LOCAL_BUILDER: '0' })).toBeUndefined();
    expect(() => localBuilderSettings({ LOCAL_BUILDER: 'yes' })).toThrow(
      'LOCAL_BUILDER must be 1 (the default: deployments are built) or 0, not yes',
    );
    expect(localBuilderSettings({ LOCAL_BUILDER: '1' })).toMatchObject({ delayMs: DEFAULT_BUILDER_DELAY_MS });
    expect(localBuilderSettings({ LOCAL_BUILDER: '1', LOCAL_BUILDER_DELAY_MS: '200' })).toMatchObject({
      delayMs: 200,
    });
    expect(() => localBuilderSettings({ LOCAL_BUILDER: '1', LOCAL_BUILDER_DELAY_MS: 'soon' })).toThrow(
      'LOCAL_BUILDER_DELAY_MS must be a whole number of milliseconds, not soon',
    );
  });

  it('moves a queued deployment through building to ready (and production), leaving a canceled one alone', async () => {
    const { key, userId } = await newCaller();
    const project = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (project.body as { id: string }).id;
    const deploy = async () =>
      (
        (await call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json: { projectId } })).body as {
          id: string;
        }
      ).id;
    const moving = await deploy();
    const canceled = await deploy();
    expect(
      (await call(`${gateway.baseUrl}/deployments/${canceled}/cancel`, { method: 'POST', key })).status,
    ).toBe(200);
    const builder = startLocalBuilder({ delayMs: 100, pollMs: 20, ownerId: userId });
    try {
      const events = () =>
        call(`${gateway.baseUrl}/deployments/${moving}/events`, { key }).then(
          (response) =>
            (response.body as { events: { status: string; at: string; message?: string }[] }).events,
        );
      const history = await until(events, (list) => list.at(-1)?.status === 'ready');
      expect(history).toEqual([
        { status: 'queued', at: expect.any(String) },
        { status: 'building', at: expect.any(String), message: 'local builder: building' },
        { status: 'ready', at: expect.any(String), message: 'local builder: ready' },
      ]);
      const [queuedAt, buildingAt] = history.map((event) => Date.parse(event.at));
      expect((buildingAt ?? 0) - (queuedAt ?? 0)).toBeGreaterThanOrEqual(100);
      // A few lines of build log at each step, written through the API's append.
      const log = await call(`${gateway.baseUrl}/deployments/${moving}/logs`, { key });
      expect(
        (log.body as { lines: { seq: number; text: string }[] }).lines.map((line) => [line.seq, line.text]),
      ).toEqual([
        [1, 'Cloning branch main'],
        [2, 'Installing dependencies'],
        [3, '> npm run build'],
        [4, 'Compiled successfully'],
        [5, 'Uploading build output'],
      ]);
      const none = await call(`${gateway.baseUrl}/deployments/${canceled}/logs`, { key });
      expect(none.body).toEqual({ lines: [], nextCursor: null });
      const other = await call(`${gateway.baseUrl}/deployments/${canceled}`, { key });
      expect(other.body).toMatchObject({ status: 'canceled' });
      // On the production branch: ready, it becomes production by itself (just after the status moves).
      const shown = await until(
        () => call(`${gateway.baseUrl}/projects/${projectId}`, { key }).then((response) => response.body),
        (body) => (body as { production: unknown }).production !== null,
      );
      expect(shown).toMatchObject({ production: { deploymentId: moving, reason: 'auto' } });
    } finally {
      await builder.stop();
    }
  });
});
