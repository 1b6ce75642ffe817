// Login latency over real HTTP through the local gateway on DynamoDB Local, and the share of it
// spent hashing the password; a keyed read for comparison. Run: `npm run bench`.
import type { AddressInfo } from 'node:net';
import { freePort, localClient, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { ensureTables } from '#infra/local/ensure-tables.ts';
import { localEnvironment } from '#infra/local/environment.ts';
import { createGateway } from '#infra/local/gateway.ts';
import { hashPassword, verifyPassword } from '#shared/domain/passwords.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

async function timeRuns(run: () => Promise<{ status: number } | boolean>): Promise<number[]> {
  await run(); // warm-up: module caches, keep-alive connections
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await run();
    times.push(performance.now() - started);
    const ok = typeof result === 'boolean' ? result : result.status === 200;
    if (!ok) throw new Error(`A measured request failed: ${JSON.stringify(result)}`);
  }
  return times;
}

const dynamo = await startDynamoDbLocal({ port: await freePort() });
try {
  Object.assign(process.env, localEnvironment(dynamo.endpoint), {
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_MAX: '100000',
    LOGIN_EMAIL_RATE_LIMIT_MAX: '100000',
  });
  const client = localClient(dynamo.endpoint);
  await ensureTables(client);
  client.destroy();
  const server = await createGateway();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const credentials = { email: `bench-${Date.now()}@example.test`, password: 'benchmark passphrase' };
  const post = (path: string, body: unknown, key?: string) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    }));

  await post('/auth/register', credentials);
  const login = await timeRuns(() => post('/auth/login', credentials));
  const stored = await hashPassword(credentials.password);
  const hashing = await timeRuns(() => verifyPassword(credentials.password, stored));

  const { body } = await post('/auth/login', credentials);
  const key = String(body.apiKey);
  const project = await post('/v1/projects', { name: 'bench' }, key);
  const read = await timeRuns(() =>
    fetch(`${url}/v1/projects/${String(project.body.id)}`, {
      headers: { Authorization: `Bearer ${key}` },
    }).then(async (response) => ({ status: response.status, body: await response.text() })),
  );

  const line = (label: string, times: number[]) =>
    console.log(
      `${label.padEnd(36)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms`,
    );
  console.log(`Node ${process.version}, ${RUNS} sequential requests each, DynamoDB Local\n`);
  line('POST /auth/login', login);
  line('  argon2id verify alone', hashing);
  line('GET /v1/projects/{id} (2 DynamoDB calls)', read);
  console.log(
    `\nhashing share of login (medians): ${((percentile(hashing, 0.5) / percentile(login, 0.5)) * 100).toFixed(0)}%`,
  );
  server.closeAllConnections();
  server.close();
} finally {
  await dynamo.stop();
}
