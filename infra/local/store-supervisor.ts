import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DynamoDbLocal,
  type DynamoDbLocalExit,
  type DynamoDbLocalOptions,
  startDynamoDbLocal,
} from './dynamodb-local.ts';

// Keeps `npm start`'s DynamoDB Local running: when it dies it is started again on the same port,
// because every DynamoDB client in the process was built with that endpoint and cannot be told
// about another one. Each (re)start is followed by `prepare`, which puts back what a fresh
// in-memory store lacks (the tables); on file storage the data is still there.

export interface SupervisedStoreOptions extends DynamoDbLocalOptions {
  /** Runs after every start, the first included, before the store counts as up. */
  prepare(endpoint: string): Promise<void>;
  /** Called once when the store keeps dying and supervision stops; nothing is restarted after it. */
  onGiveUp(reason: Error): void;
  log?(line: string): void;
}

export interface SupervisedStore {
  endpoint: string;
  port: number;
  /** Stops DynamoDB Local for good: no restart follows. */
  stop(): Promise<void>;
}

/** Deaths (or failed restarts) within this window that make the supervisor give up. */
const GIVE_UP_AFTER = 5;
const WINDOW_MS = 60_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 4_000;
// How long a dead store's port may stay taken (a Java still shutting down) before a restart fails.
const PORT_WAIT_MS = 10_000;

function howItEnded(exit: DynamoDbLocalExit): string {
  if (exit.signal) return `was killed by ${exit.signal}`;
  // The watchdog reports a Java killed by a signal as 128 + its number.
  if (exit.code !== null && exit.code > 128)
    return `exited with code ${exit.code} (Java killed by signal ${exit.code - 128})`;
  return `exited with code ${exit.code}`;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // No host: the same wildcard address Java listens on, so any listener there conflicts.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + PORT_WAIT_MS;
  while (!(await portIsFree(port))) {
    if (Date.now() > deadline) throw new Error(`port ${port} is still in use`);
    await sleep(200);
  }
}

/** Starts DynamoDB Local and restarts it on the same port whenever it dies, until `stop()`. */
export async function superviseDynamoDbLocal(options: SupervisedStoreOptions): Promise<SupervisedStore> {
  const { prepare, onGiveUp, log = (line: string) => console.error(line), ...local } = options;
  // Aborted by `stop()`: cuts a backoff wait or a Java still starting short, so Ctrl-C is prompt.
  const shutdown = new AbortController();
  const stopping = (): boolean => shutdown.signal.aborted;
  let current: DynamoDbLocal | undefined;
  // Settles when the restart loop is idle again, so that `stop()` never races a Java being started.
  let restarting: Promise<void> = Promise.resolve();
  const failures: number[] = [];

  const startOnce = async (): Promise<DynamoDbLocal> => {
    const dynamo = await startDynamoDbLocal({ ...local, signal: shutdown.signal });
    try {
      await prepare(dynamo.endpoint);
    } catch (error) {
      await dynamo.stop();
      throw error;
    }
    return dynamo;
  };

  // Returns the delay before the next attempt, or undefined when it is time to give up.
  const recordFailure = (): number | undefined => {
    const now = Date.now();
    failures.push(now);
    while (failures.length > 0 && (failures[0] ?? now) <= now - WINDOW_MS) failures.shift();
    if (failures.length >= GIVE_UP_AFTER) return undefined;
    return Math.min(FIRST_DELAY_MS * 2 ** (failures.length - 1), MAX_DELAY_MS);
  };

  const restart = async (exit: DynamoDbLocalExit): Promise<void> => {
    let reason = `DynamoDB Local on port ${local.port} ${howItEnded(exit)}`;
    // A failed restart's error already carries Java's output; only a death needs it added.
    let output = exit.stderr;
    for (;;) {
      const delay = recordFailure();
      if (delay === undefined) {
        const lastOutput = output ? `; its last output: ${output}` : '';
        onGiveUp(
          new Error(
            `${reason}; it failed ${GIVE_UP_AFTER} times within ${WINDOW_MS / 1000} s, so it is not restarted again${lastOutput}`,
          ),
        );
        return;
      }
      // One line per event, even when Java's output spans several.
      log(`${reason.replace(/\s+/g, ' ')}; restarting it in ${delay / 1000} s`);
      await sleep(delay, undefined, { signal: shutdown.signal }).catch(() => {});
      if (stopping()) return;
      try {
        await waitForPort(local.port);
        const dynamo = await startOnce();
        if (stopping()) {
          await dynamo.stop();
          return;
        }
        current = dynamo;
        watch(dynamo);
        log(`DynamoDB Local is back on ${dynamo.endpoint}`);
        return;
      } catch (error) {
        if (stopping()) return;
        reason = `DynamoDB Local did not restart (${error instanceof Error ? error.message : String(error)})`;
        output = '';
      }
    }
  };

  const watch = (dynamo: DynamoDbLocal): void => {
    void dynamo.exited.then((exit) => {
      if (stopping() || exit.stopped) return;
      current = undefined;
      restarting = restart(exit);
    });
  };

  current = await startOnce();
  watch(current);

  return {
    endpoint: current.endpoint,
    port: local.port,
    stop: async () => {
      shutdown.abort();
      await restarting;
      await current?.stop();
    },
  };
}
