import { execFileSync } from 'node:child_process';
import { type DynamoDbLocal, freePort, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { config } from '#shared/runtime/config.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call, type JsonResponse, rateLimitOf } from '../support/http.ts';
import { createTablesOf } from '../support/own-tables.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// A store that stops answering without closing its connections (a brown-out, a network black hole)
// must not hold requests until the function times out. This suite runs its own DynamoDB Local,
// freezes it with SIGSTOP for ten seconds under a running gateway, and times every answer.

const FREEZE_MS = 10_000;
/** How long the thawed store may take to answer every kind of request as usual again. */
const RECOVERY_MS = 15_000;
const RECOVERED = [
  ['health', 200],
  ['list projects', 200],
  ['get project', 200],
  ['create deployment', 201],
  ['login', 401],
];

let dynamo: DynamoDbLocal;
let gateway: TestGateway;
let key: string;
let projectId: string;
let deadlineMs: number;
let restoreSettings: () => void;

/** The Java process of this suite's DynamoDB Local (the watchdog shell around it is left alone). */
const javaPid = (port: number): number =>
  Number(
    execFileSync('pgrep', ['-f', `^java .*DynamoDBLocal.jar -port ${port} `], { encoding: 'utf8' }).trim(),
  );

beforeAll(async () => {
  dynamo = await startDynamoDbLocal({ port: await freePort() });
  await createTablesOf(process.env, dynamo.endpoint);
  // The default deadline, not the test run's roomier one.
  restoreSettings = overrideSettings({ DYNAMODB_ENDPOINT: dynamo.endpoint, REQUEST_DEADLINE_MS: '3000' });
  ({ REQUEST_DEADLINE_MS: deadlineMs } = config);
  gateway = await startGateway();
  ({ key } = await newCaller({ rateLimit: 1_000 }));
  const project = await call(`${gateway.baseUrl}/projects`, {
    method: 'POST',
    key,
    json: { name: 'frozen' },
  });
  projectId = (project.body as { id: string }).id;
}, 60_000);

afterAll(async () => {
  await gateway.close();
  await dynamo.stop();
  restoreSettings();
});

interface Timed {
  name: string;
  response: JsonResponse;
  ms: number;
  /** When the answer came (performance.now()). */
  at: number;
}

async function timed(name: string, request: () => Promise<JsonResponse>): Promise<Timed> {
  const started = performance.now();
  const response = await request();
  const at = performance.now();
  return { name, response, ms: at - started, at };
}

/** One request of each kind: health, a keyed read, a keyed write, and login. */
const wave = (): Promise<Timed>[] => [
  timed('health', () => call(`${gateway.backendUrl}/health`)),
  timed('list projects', () => call(`${gateway.baseUrl}/projects`, { key })),
  timed('get project', () => call(`${gateway.baseUrl}/projects/${projectId}`, { key })),
  timed('create deployment', () =>
    call(`${gateway.baseUrl}/deployments`, { method: 'POST', key, json: { projectId } }),
  ),
  timed('login', () =>
    call(`${gateway.backendUrl}/auth/login`, {
      method: 'POST',
      json: { email: 'nobody@example.test', password: 'not the password' },
    }),
  ),
];

/**
 * Recovered without a restart: once thawed, the store first works off the calls that queued up on
 * its sockets while it was frozen (each abandoned by its caller), which on a busy machine can take
 * it past a fresh request's deadline; within RECOVERY_MS every kind answers as usual. (A CI run saw
 * the wave right after the burst's thaw answer 500 for its three store calls.) Gives the last wave's
 * statuses, by name.
 */
async function recoveredWave(): Promise<(string | number)[][]> {
  const statuses = async () =>
    (await Promise.all(wave())).map(({ name, response }) => [name, response.status]);
  const recoveredBy = Date.now() + RECOVERY_MS;
  let recovered = await statuses();
  while (JSON.stringify(recovered) !== JSON.stringify(RECOVERED) && Date.now() < recoveredBy) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    recovered = await statuses();
  }
  return recovered;
}

/**
 * Watches this process's event loop: how long it was held up in all, counting only holds past
 * 50 ms (a timer's usual lateness, summed over thousands of ticks, is not the machine stopping us).
 */
function watchStalls(): { stop(): { heldMs: number; longestMs: number } } {
  const TICK_MS = 10;
  let last = performance.now();
  let heldMs = 0;
  let longestMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const held = now - last - TICK_MS;
    if (held > 50) heldMs += held;
    longestMs = Math.max(longestMs, held);
    last = now;
  }, TICK_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return { heldMs, longestMs };
    },
  };
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

describe('when DynamoDB freezes for ten seconds', () => {
  it('answers every request within the request deadline, then recovers when the store thaws', async () => {
    // As in the burst below: the time this process was held up is allowed on top of the margin.
    const stalls = watchStalls();
    const pid = javaPid(dynamo.port);
    process.kill(pid, 'SIGSTOP');
    // Thawed by the clock, not by the requests: a request that waits for the store must not keep it frozen.
    const thawed = new Promise<void>((resolve) =>
      setTimeout(() => {
        process.kill(pid, 'SIGCONT');
        resolve();
      }, FREEZE_MS),
    );
    const answers: Timed[] = [];
    const frozenUntil = Date.now() + FREEZE_MS;
    while (Date.now() < frozenUntil - 2_000) {
      answers.push(...(await Promise.all(wave())));
    }
    const { heldMs: stalledMs } = stalls.stop();
    await thawed;

    const latencies = answers.map(({ ms }) => ms).sort((a, b) => a - b);
    // The numbers for the note: visible with `npm run jest -- test/integration/store-freeze`.
    process.stdout.write(
      `frozen store: ${answers.length} answers, p50 ${Math.round(percentile(latencies, 50))} ms, max ${Math.round(latencies.at(-1) ?? 0)} ms (event loop held up ${Math.round(stalledMs)} ms in all)\n`,
    );
    expect(answers.length).toBeGreaterThanOrEqual(5);
    for (const { name, response, ms } of answers) {
      expect({ name, fast: ms < deadlineMs + 1_000 + stalledMs }).toEqual({ name, fast: true });
      if (name === 'health') {
        expect(response.status).toBe(503);
        continue;
      }
      expect({ name, status: response.status, body: response.body }).toEqual({
        name,
        status: 500,
        body: { error: 'internal_error', message: 'An unexpected error occurred' },
      });
      expect(response.headers.get('x-request-id')).toBeTruthy();
      if (name !== 'login') expect(rateLimitOf(response).limit).toBeGreaterThan(0);
    }

    expect(await recoveredWave()).toEqual(RECOVERED);
  }, 60_000);
});

describe('when DynamoDB freezes for six seconds under a burst of 150 requests', () => {
  // Issue 22, item 5: more requests than the local gateway's invocation slots. A request still
  // waiting for a slot when its time is up is answered then (the chain's own 500, as if its store call
  // had been cut off there), and one that gets a slot late has only what is left of its time.
  const BURST_FREEZE_MS = 6_000;
  const REQUESTS = 150;
  const MARGIN_MS = 250;

  it('answers every request no later than the deadline plus 250 ms after it was sent', async () => {
    // Nothing in a process can answer while the machine does not run it: the time this process's
    // event loop was held up (a busy shared machine, this run's own bundling) is reported, and
    // allowed on top of the margin, so the test judges the gateway rather than the machine. All of
    // it, not the longest hold alone: a CI run had a 1.1 s hold and late answers 0.1 s past it.
    const stalls = watchStalls();
    const pid = javaPid(dynamo.port);
    process.kill(pid, 'SIGSTOP');
    let thawedAt = Number.POSITIVE_INFINITY;
    const thawed = new Promise<void>((resolve) =>
      setTimeout(() => {
        process.kill(pid, 'SIGCONT');
        thawedAt = performance.now();
        resolve();
      }, BURST_FREEZE_MS),
    );
    // 30 requests every half second (six of each kind): all sent within the first 2.5 s of the freeze.
    const pending: Promise<Timed>[] = [];
    for (let sent = 0; sent < REQUESTS; sent += 30) {
      for (let round = 0; round < 6; round++) pending.push(...wave());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const answers = await Promise.all(pending);
    const { heldMs: stalledMs, longestMs } = stalls.stop();
    await thawed;

    const latencies = answers.map(({ ms }) => ms).sort((a, b) => a - b);
    process.stdout.write(
      `frozen store, burst: ${answers.length} requests, p50 ${Math.round(percentile(latencies, 50))} ms, max ${Math.round(latencies.at(-1) ?? 0)} ms (deadline ${deadlineMs} ms; event loop held up ${Math.round(stalledMs)} ms in all, at most ${Math.round(longestMs)} ms at once)\n`,
    );
    expect(answers).toHaveLength(REQUESTS);
    const late = answers
      .filter(({ ms }) => ms > deadlineMs + MARGIN_MS + stalledMs)
      .map(({ name, ms }) => `${name} ${Math.round(ms)} ms`);
    expect(late).toEqual([]);
    // An answer that came after the thaw (only when a stalled machine let its request wait that
    // long, which the lateness rule above allowed for) found the store answering again.
    for (const { name, response } of answers.filter(({ at }) => at < thawedAt)) {
      if (name === 'health') {
        expect(response.status).toBe(503);
        continue;
      }
      expect({ name, status: response.status, body: response.body }).toEqual({
        name,
        status: 500,
        body: { error: 'internal_error', message: 'An unexpected error occurred' },
      });
      expect(response.headers.get('x-request-id')).toBeTruthy();
      if (name !== 'login') expect(rateLimitOf(response).limit).toBeGreaterThan(0);
    }

    expect(await recoveredWave()).toEqual(RECOVERED);
  }, 60_000);
});
