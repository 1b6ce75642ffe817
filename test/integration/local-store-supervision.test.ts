import { type ChildProcess, type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '#infra/local/dynamodb-local.ts';
import { call } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';

// `npm start` as a user runs it, in a child process with its own DynamoDB Local; the Java process
// is then killed from outside, as the OOM killer or a stray `kill` would, and the API must come
// back on its own.

const script = join(import.meta.dirname, '../../infra/local/start.ts');
const adminPassword = 'admin-password-for-the-test';
const password = 'correct horse battery';
const run = promisify(execFile);

interface NpmStart {
  child: ChildProcessByStdio<null, Readable, Readable>;
  backendUrl: string;
  dynamoPort: number;
  stderr(): string;
  exitCode: Promise<number | null>;
}

const started = new Set<ChildProcess>();
const dataDirs: string[] = [];

async function npmStart(args: string[] = []): Promise<NpmStart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-supervision-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, [script, ...args], {
    // Not the test run's environment: its DYNAMODB_ENDPOINT would make `npm start` use that store.
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PLATFORM_ADMIN_PASSWORD: adminPassword,
      // What is under test is the store's supervision; the builder's reads would only add to it.
      LOCAL_BUILDER: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let dynamoPort = 0;
  const backendUrl = await new Promise<string>((resolve, reject) => {
    void exitCode.then((code) => reject(new Error(`npm start exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const dynamo = /^DynamoDB: +http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (dynamo) dynamoPort = Number(dynamo[1]);
      const backend = /^backend_url: +(\S+)/.exec(line);
      if (backend?.[1]) resolve(backend[1]);
    });
  });
  return { child, backendUrl, dynamoPort, stderr: () => stderr, exitCode };
}

/** The pids of the Java processes serving DynamoDB Local on this port (not their shell watchdogs). */
async function javaPids(port: number): Promise<number[]> {
  try {
    const { stdout } = await run('pgrep', ['-f', `^java .*DynamoDBLocal\\.jar -port ${port} `]);
    return stdout.trim().split('\n').map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Kills DynamoDB Local's Java with SIGKILL and waits until it is gone; returns its pid. */
async function killJava(port: number): Promise<number> {
  const [pid] = await javaPids(port);
  if (pid === undefined) throw new Error(`no DynamoDB Local on port ${port}`);
  process.kill(pid, 'SIGKILL');
  await until('the killed Java to be gone', async () =>
    (await javaPids(port)).includes(pid) ? undefined : true,
  );
  return pid;
}

/**
 * Waits until /health answers 200 again and the supervisor reports the store back. Health
 * alone is not enough: it turns 200 as soon as the API-key table exists, which on a store restarted
 * in memory is a moment before the other tables.
 */
async function recovered(app: NpmStart): Promise<void> {
  await until('health 200', async () =>
    (await call(`${app.backendUrl}/health`)).status === 200 ? true : undefined,
  );
  await until('the store to be reported back', async () =>
    app.stderr().includes(`DynamoDB Local is back on http://127.0.0.1:${app.dynamoPort}`) ? true : undefined,
  );
}

const register = (backendUrl: string, email: string) =>
  call(`${backendUrl}/auth/register`, { method: 'POST', json: { email, password } });
const login = (backendUrl: string, email: string, secret = password) =>
  call(`${backendUrl}/auth/login`, { method: 'POST', json: { email, password: secret } });

afterAll(async () => {
  // A clean stop where possible; SIGKILL otherwise, which the watchdog turns into Java's end too.
  for (const child of started) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('npm start supervises its DynamoDB Local', () => {
  it('restarts a killed store on the same port, keeps the data on file, and stops cleanly on SIGTERM', async () => {
    const app = await npmStart();
    const email = uniqueEmail('supervised');
    expect((await register(app.backendUrl, email)).status).toBe(201);

    const killed = await killJava(app.dynamoPort);
    expect((await call(`${app.backendUrl}/health`)).status).toBe(503);
    await recovered(app);
    expect(app.child.exitCode).toBeNull(); // the same `npm start`, never restarted

    const relogin = await login(app.backendUrl, email);
    expect(relogin.status).toBe(200);
    expect(relogin.body).toMatchObject({ user: { email } });
    const [restarted] = await javaPids(app.dynamoPort);
    expect(restarted).toBeDefined();
    expect(restarted).not.toBe(killed);
    expect(app.stderr()).toMatch(
      new RegExp(`DynamoDB Local on port ${app.dynamoPort} exited with code 137 .*; restarting it in 0.5 s`),
    );

    // A deliberate stop is not a death: nothing restarts, and no Java is left behind.
    const before = app.stderr();
    app.child.kill('SIGTERM');
    expect(await app.exitCode).toBe(0);
    expect(await javaPids(app.dynamoPort)).toEqual([]);
    expect(app.stderr()).toBe(before);
  }, 90_000);

  it('re-creates the tables and the admin when a store in memory comes back empty', async () => {
    const app = await npmStart(['--in-memory']);
    const before = uniqueEmail('forgotten');
    expect((await register(app.backendUrl, before)).status).toBe(201);

    await killJava(app.dynamoPort);
    expect((await call(`${app.backendUrl}/health`)).status).toBe(503);
    await recovered(app);

    // In memory nothing survives, but the store is usable again: tables exist, the admin logs in.
    const after = uniqueEmail('after-restart');
    expect((await register(app.backendUrl, after)).status).toBe(201);
    expect((await login(app.backendUrl, after)).status).toBe(200);
    expect((await login(app.backendUrl, before)).status).toBe(401);
    const admin = await login(app.backendUrl, 'admin@localhost.test', adminPassword);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ user: { role: 'admin' } });
  }, 90_000);

  it('gives up with a clear message and exits non-zero when the store keeps dying', async () => {
    const app = await npmStart(['--in-memory']);
    // Kill every Java as soon as it appears, so each restart dies too.
    let stopKilling = false;
    const killer = (async () => {
      while (!stopKilling) {
        for (const pid of await javaPids(app.dynamoPort)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        await sleep(20);
      }
    })();

    let code: number;
    try {
      code = await until('npm start to give up', async () => app.child.exitCode ?? undefined, 60_000);
    } finally {
      stopKilling = true;
      await killer;
    }
    expect(code).toBe(1);
    // Each attempt waits twice as long as the one before, and the fifth failure in a minute ends it.
    const delays = [...app.stderr().matchAll(/restarting it in ([\d.]+) s/g)].map((match) => match[1]);
    expect(delays).toEqual(['0.5', '1', '2', '4']);
    expect(app.stderr()).toMatch(/it failed 5 times within 60 s, so it is not restarted again/);
    expect(await javaPids(app.dynamoPort)).toEqual([]);
  }, 90_000);
});
