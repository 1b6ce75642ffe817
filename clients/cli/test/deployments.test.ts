import { startLocalBuilder } from '../../../infra/local/builder.ts';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newCaller } from '../../../test/support/users.ts';
import { inProcessCli } from './support/in-process.ts';

// `platform deployments events|wait`, in-process with recording streams against the local gateway,
// the local builder (what `npm start` runs) building the user's deployments.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
});

const { platform, platformText } = inProcessCli(() => gateway);

/** A new user (their key and id) with a project `app` and a queued deployment of it. */
async function queuedDeployment() {
  const { key, userId } = await newCaller();
  const env = { PLATFORM_API_KEY: key };
  expect((await platform(env, ['projects', 'create', '--name', 'app'])).code).toBe(0);
  const deployed = await platform(env, ['deploy', 'app']);
  expect(deployed).toMatchObject({ code: 0, json: { status: 'queued' } });
  return { env, userId, id: (deployed.json as { id: string }).id };
}

describe('platform deployments', () => {
  it('waits for a build to be ready (exit 0), then lists its history, one line per event', async () => {
    const { env, userId, id } = await queuedDeployment();
    const builder = startLocalBuilder({ delayMs: 100, pollMs: 20, ownerId: userId });
    let waited: Awaited<ReturnType<typeof platform>>;
    try {
      waited = await platform(env, ['deployments', 'wait', id, '--timeout', '1m']);
    } finally {
      await builder.stop();
    }
    expect(waited).toMatchObject({ code: 0, json: { id, status: 'ready', readyAt: expect.any(String) } });

    const history = await platform(env, ['deployments', 'events', id]);
    expect(history).toMatchObject({ code: 0 });
    const { events } = history.json as { events: { status?: string }[] };
    expect(events.map((event) => event.status)).toEqual(['queued', 'building', 'ready']);

    const lines = (await platformText(env, ['deployments', 'events', id])).out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\S+Z {2}queued$/);
    expect(lines[1]).toMatch(/^\S+Z {2}building {2}\S/);
    expect(lines[2]).toMatch(/^\S+Z {2}ready\b/);
  });

  it('logs --follow ends a failed build with the message of the report that failed it (exit 1)', async () => {
    const { env, id } = await queuedDeployment();
    const report = (json: Record<string, string>) =>
      fetch(`${gateway.baseUrl}/deployments/${id}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.PLATFORM_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
    expect((await report({ status: 'building' })).status).toBe(200);
    expect((await report({ status: 'error', message: 'npm run build exited with 1' })).status).toBe(200);
    const followed = await platformText(env, ['logs', id, '--follow']);
    expect(followed.code).toBe(1);
    expect(followed.out.trimEnd().split('\n').at(-1)).toBe(
      `Deployment ${id} is error: npm run build exited with 1`,
    );
    expect(await platform(env, ['logs', id, '--follow'])).toEqual({
      code: 1,
      json: { id, status: 'error', lines: 0, errorMessage: 'npm run build exited with 1' },
    });
  });

  it('exits 1 when the deployment ends other than ready, and prints it', async () => {
    const { env, id } = await queuedDeployment();
    expect((await platform(env, ['deployments', 'cancel', id, '--yes'])).code).toBe(0);
    expect(await platform(env, ['deployments', 'wait', id])).toEqual({
      code: 1,
      json: expect.objectContaining({ id, status: 'canceled' }),
    });
    const shown = await platformText(env, ['deployments', 'wait', id]);
    expect(shown.code).toBe(1);
    expect(shown.out).toMatch(/^status: +canceled$/m);
    const history = await platform(env, ['deployments', 'events', id]);
    expect((history.json as { events: { status: string }[] }).events.map((e) => e.status)).toEqual([
      'queued',
      'canceled',
    ]);
  });

  it('exits 1 with a timeout error naming the status when --timeout passes first', async () => {
    const { env, id } = await queuedDeployment();
    expect(await platform(env, ['deployments', 'wait', id, '--timeout', '1s'])).toEqual({
      code: 1,
      json: { error: 'timeout', message: `Deployment ${id} is still queued after 1 s` },
    });
  });

  it('says once, while a deployment sits queued with nothing to build it, what builds deployments', async () => {
    const { env, id } = await queuedDeployment();
    const soon = { ...env, PLATFORM_QUEUED_NOTICE: '200ms' };
    const notice = `Deployment ${id} is still queued after 0.2 s: no builder has picked it up.`;
    const waited = await platformText(soon, ['deployments', 'wait', id, '--timeout', '3s', '--json']);
    expect(waited.code).toBe(1);
    expect(waited.err.split('\n').filter((line) => line.startsWith(notice))).toEqual([
      expect.stringContaining("locally, by npm start's (on unless it was started with LOCAL_BUILDER=0)"),
    ]);
    const deployed = await platformText(soon, ['deploy', 'app', '--wait', '--timeout', '2s', '--json']);
    const second = (JSON.parse(deployed.out) as { message: string }).message.split(' ')[1] ?? '';
    expect(deployed.err.split('\n').filter((line) => line.includes('is still queued after 0.2 s'))).toEqual([
      expect.stringContaining(
        `Deployment ${second} is still queued after 0.2 s: no builder has picked it up.`,
      ),
    ]);
  });

  it('says nothing of builders when one takes the deployment', async () => {
    const { env, userId, id } = await queuedDeployment();
    const builder = startLocalBuilder({ delayMs: 50, pollMs: 20, ownerId: userId });
    try {
      const waited = await platformText({ ...env, PLATFORM_QUEUED_NOTICE: '5s' }, [
        'deployments',
        'wait',
        id,
      ]);
      expect(waited.code).toBe(0);
      expect(waited.err).not.toContain('still queued');
    } finally {
      await builder.stop();
    }
  });

  it('refuses a bad --timeout before any request, and answers not_found for another user', async () => {
    const { id } = await queuedDeployment();
    const stranger = { PLATFORM_API_KEY: (await newCaller()).key };
    expect(await platform(stranger, ['deployments', 'wait', id, '--timeout', 'soon'])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: '--timeout must be like 90s, 15m or 1h, not soon' },
    });
    expect(await platform(stranger, ['deployments', 'wait', id, '--timeout', '1s'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(await platform(stranger, ['deployments', 'events', id])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });
});
