import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { closeStoreClients, db } from '#shared/db/client.ts';
import { requestBudgetMs, withDeadline } from '#shared/runtime/deadline.ts';
import { overrideSettings } from '../../support/settings.ts';

// A store that accepts connections and never answers: the case where only timers can end a call.

let stalled: Server;
const sockets: Socket[] = [];
let restoreSettings: () => void;

beforeAll(async () => {
  stalled = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  const { port } = stalled.address() as AddressInfo;
  restoreSettings = overrideSettings({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` });
});

afterAll(async () => {
  closeStoreClients();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => stalled.close(resolve));
  restoreSettings();
});

const read = () => db.send(new GetCommand({ TableName: 'any', Key: { id: 'x' } }));

async function failureOf(run: () => Promise<unknown>): Promise<{ name: string; ms: number }> {
  const started = performance.now();
  try {
    await run();
  } catch (error) {
    return { name: error instanceof Error ? error.name : String(error), ms: performance.now() - started };
  }
  throw new Error('the call to a stalled store succeeded');
}

describe('deadlines on store calls', () => {
  it('ends a call when the request deadline passes, before the call would time out by itself', async () => {
    const failure = await failureOf(() => withDeadline(300, read));
    expect(failure.ms).toBeGreaterThanOrEqual(290);
    // Well before the call's own 2 s timeout, with room for a busy machine.
    expect(failure.ms).toBeLessThan(1_900);
  });

  it('fails a call outside any request on its own timeout instead of waiting for the store', async () => {
    const failure = await failureOf(read);
    expect(failure.name).toBe('TimeoutError');
    // Two attempts of two seconds each against DynamoDB Local, and the backoff between them.
    expect(failure.ms).toBeLessThan(6_000);
  }, 10_000);

  it('gives a request the deadline, or less when the function has less time left', () => {
    expect(requestBudgetMs(3_000, undefined)).toBe(3_000);
    expect(requestBudgetMs(3_000, 10_000)).toBe(3_000);
    expect(requestBudgetMs(3_000, 2_000)).toBe(1_500);
    expect(requestBudgetMs(3_000, 100)).toBe(0);
  });
});
