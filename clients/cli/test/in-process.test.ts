import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '@platform-api/client';
import { startLocalBuilder } from '../../../infra/local/builder.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { startGateway } from '../../../test/support/gateway.ts';
import { overrideSettings } from '../../../test/support/settings.ts';
import { newCaller } from '../../../test/support/users.ts';
import { run } from '../src/cli.ts';
import type { IO } from '../src/io.ts';

// Commands run in-process, each with fake streams that record what was written and when (the way
// `gh` tests a command constructed with its I/O), against the local gateway while the local builder
// (what `npm start` runs) builds. The log stream polls every 100 ms here.

const restoreSettings = overrideSettings({ LOG_STREAM_POLL_MS: '100' });
let gateway: TestGateway;
let home: string;
beforeAll(async () => {
  gateway = await startGateway();
  home = await mkdtemp(join(tmpdir(), 'platform-cli-in-process-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(home, { recursive: true, force: true });
  restoreSettings();
});

const BUILD_LINES = [
  'Cloning branch main',
  'Installing dependencies',
  '> npm run build',
  'Compiled successfully',
  'Uploading build output',
];

interface Written {
  text: string;
  at: number;
}

/** Runs `platform <argv>` in this process; what it wrote to each stream, with when, and its exit code. */
async function platform(argv: string[], env: Record<string, string>) {
  const stdout: Written[] = [];
  const stderr: Written[] = [];
  const io: IO = {
    stdout: { write: (text: string) => stdout.push({ text, at: Date.now() }) },
    stderr: { write: (text: string) => stderr.push({ text, at: Date.now() }) },
    env: { PLATFORM_API_URL: gateway.baseUrl, PLATFORM_BACKEND_URL: gateway.backendUrl, ...env },
    interactive: false,
    ask: () => Promise.reject(new Error('no terminal')),
    askHidden: () => Promise.reject(new Error('no terminal')),
  };
  const code = await run(argv, io);
  const text = (written: Written[]) => written.map((write) => write.text).join('');
  return { code, stdout, stderr, out: text(stdout), err: text(stderr) };
}

/** A new user's key, one project of theirs, and the local builder on their deployments. */
async function project(name: string) {
  const { key, userId } = await newCaller();
  const env = { PLATFORM_API_KEY: key };
  expect((await platform(['projects', 'create', '--name', name, '--json'], env)).code).toBe(0);
  const builder = startLocalBuilder({ delayMs: 800, pollMs: 20, ownerId: userId });
  return { env, builder, client: new PlatformClient({ baseUrl: gateway.baseUrl, apiKey: key }) };
}

describe('platform deploy --wait', () => {
  it('prints each build line as the build writes it, then the final status, and exits 0 when ready', async () => {
    const { env, builder, client } = await project('waited');
    const waited = await platform(['deploy', 'waited', '--wait'], env).finally(() => builder.stop());

    expect(waited.code).toBe(0);
    const id = /^id: +(dpl_\w+)$/m.exec(waited.out)?.[1] ?? '';
    const deployment = await client.deployments.get(id);
    expect(deployment.status).toBe('ready');
    const progress = waited.stdout.filter(({ text }) => /^\S+Z {2}/.test(text));
    const printed = progress.map(({ text }) => text.replace(/^\S+ {2}/, '').trimEnd());
    const statuses = ['queued', 'building', 'ready'];
    expect(printed.filter((line) => !statuses.includes(line))).toEqual(BUILD_LINES);
    // Each status once, in order, and ready last (the server sends a change after its round's lines).
    expect(printed.filter((line) => statuses.includes(line))).toEqual(statuses);
    expect(printed.at(-1)).toBe('ready');
    // The first line was on the terminal while the deployment was building, before it was ready.
    const readyAt = Date.parse(deployment.readyAt ?? '');
    expect(progress.find(({ text }) => text.endsWith(`  ${BUILD_LINES[0]}\n`))?.at).toBeLessThan(readyAt);
    expect(progress.at(-1)?.at).toBeGreaterThanOrEqual(readyAt);
    // Then the deployment, as `deployments get` shows it.
    expect(waited.out.endsWith(`${(await platform(['deployments', 'get', id], env)).out}`)).toBe(true);
  }, 30_000);

  it('with --json prints exactly one JSON document, the final deployment, and the build on stderr', async () => {
    const { env, builder, client } = await project('json');
    const waited = await platform(['deploy', 'json', '--wait', '--json'], env).finally(() => builder.stop());

    expect(waited.code).toBe(0);
    const document = JSON.parse(waited.out) as { id: string };
    expect(document).toEqual(await client.deployments.get(document.id));
    expect(document).toMatchObject({ status: 'ready' });
    expect(waited.stdout).toHaveLength(1);
    expect(waited.err).toContain('  Compiled successfully\n');
  }, 30_000);

  it('exits 1 when the deployment is canceled while it is followed', async () => {
    const { env, builder, client } = await project('canceled');
    await builder.stop();
    const waiting = platform(['deploy', 'canceled', '--wait', '--json'], env);
    const [queued] = await (async () => {
      for (;;) {
        const { deployments } = await client.deployments.list({}).page();
        if (deployments.length > 0) return deployments;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await client.deployments.cancel(queued?.id ?? '');
    const waited = await waiting;
    expect(waited.code).toBe(1);
    expect(JSON.parse(waited.out)).toMatchObject({ id: queued?.id, status: 'canceled' });
  }, 30_000);
});

describe('platform login', () => {
  it('never writes the key into the file that was there, which someone else may hold open', async () => {
    const email = `cli-${randomUUID()}@example.com`;
    const password = 'correct horse battery';
    await new PlatformClient({ baseUrl: gateway.baseUrl }).auth.register({ email, password });
    const config = join(home, randomUUID());
    const file = join(config, 'platform', 'credentials.json');
    // An old credentials file anyone could read, opened by another user before the login.
    await mkdir(join(config, 'platform'), { recursive: true });
    await writeFile(file, '{"old": true}\n', { mode: 0o644 });
    const reader = await open(file, 'r');
    try {
      const login = await platform(['login', '--json'], {
        XDG_CONFIG_HOME: config,
        PLATFORM_EMAIL: email,
        PLATFORM_PASSWORD: password,
      });
      expect(login.code).toBe(0);
      expect((await reader.readFile('utf8')).toString()).toBe('{"old": true}\n');
    } finally {
      await reader.close();
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(config, 'platform'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ email, apiKey: expect.any(String) });
  });
});
