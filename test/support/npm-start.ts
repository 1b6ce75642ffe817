import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '#infra/local/dynamodb-local.ts';
import { uniqueEmail } from './names.ts';

export interface LocalServer {
  /** `backend_url` as `npm start` printed it. */
  backendUrl: string;
  stop(): Promise<void>;
}

/** Java's start on a busy two-core machine, then the tables: allow for both. */
export const STARTED_WITHIN_MS = 60_000;

const START_SCRIPT = join(import.meta.dirname, '..', '..', 'infra', 'local', 'start.ts');

/**
 * What `npm start` runs (`node infra/local/start.ts --in-memory`), as its own process on a free port,
 * with a DynamoDB Local of its own, in memory. Not the run's store: `npm start` takes every stream
 * record of the store it is given (its webhook deliveries and purges would act on the other test
 * files' records, delivering their events a second time and logging attempts in their delivery
 * logs) and backfills every deployment of it when it starts. Started directly rather than through
 * npm, so that stopping it needs no signal to pass through npm's shell.
 */
export async function startNpmStart(): Promise<LocalServer> {
  const port = await freePort();
  // The local builder is off whatever the shell says (a suite moves its deployments itself); the
  // run's store is not this server's.
  const { DYNAMODB_ENDPOINT: _runStore, ...inherited } = process.env;
  const child = spawn(process.execPath, [START_SCRIPT, '--in-memory'], {
    env: {
      ...inherited,
      LOCAL_BUILDER: '0',
      PORT: String(port),
      PLATFORM_ADMIN_EMAIL: uniqueEmail('admin'),
      PLATFORM_ADMIN_PASSWORD: randomUUID(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const backendUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`npm start printed no backend_url in ${STARTED_WITHIN_MS / 1000} s:\n${output}`)),
      STARTED_WITHIN_MS,
    );
    const check = () => {
      const url = /^backend_url: +(\S+)$/m.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return {
    backendUrl,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
