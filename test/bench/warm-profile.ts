// `node --cpu-prof --cpu-prof-dir=<dir> test/bench/warm-profile.ts`: the warm phase of one request
// through the local gateway in this process (DynamoDB Local runs apart), for a CPU profile of where a
// warm request's time goes. BENCH_PROFILE_REQUESTS (default 3000) requests of POST /v1/deployments,
// BENCH_PROFILE_CONCURRENCY (16) at once, after 300 to warm up; BENCH_PROFILE_SERVER=minimal
// profiles the bench's minimal server (the 3 calls of the floor) instead of the gateway. Summarize
// the profile with test/bench/profile-summary.ts.
import './quiet.ts';
import { Agent } from 'node:http';
import { freePort, localClient, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { ensureTables } from '#infra/local/ensure-tables.ts';
import { localEnvironment } from '#infra/local/environment.ts';
import { createGateway } from '#infra/local/gateway.ts';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import { createMinimalServer } from './minimal-server.ts';
import { listen, send, type WarmRequest } from './warm.ts';

const REQUESTS = Number(process.env.BENCH_PROFILE_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_PROFILE_CONCURRENCY ?? 16);

const dynamo = await startDynamoDbLocal({ port: await freePort() });
try {
  Object.assign(process.env, localEnvironment(dynamo.endpoint), {
    AUTH_RATE_LIMIT_MAX: '100000',
    ANONYMOUS_RATE_LIMIT_MAX: '100000',
  });
  const client = localClient(dynamo.endpoint);
  await ensureTables(client);
  client.destroy();
  // Loaded after the settings above: the store's clients read them when they load.
  const gateway = await createGateway();
  const minimal = createMinimalServer();
  const gatewayUrl = await listen(gateway);
  const base = process.env.BENCH_PROFILE_SERVER === 'minimal' ? await listen(minimal) : gatewayUrl;
  const { apiKey } = await issueApiKey({
    userId: `usr_profile_${Date.now().toString(36)}`,
    role: 'admin',
    name: 'profile',
    rateLimit: 100_000_000,
  });
  const created = await fetch(`${gatewayUrl}/v1/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ name: 'profile' }),
  });
  const { id: projectId } = (await created.json()) as { id: string };
  const warm: WarmRequest = {
    label: 'POST /v1/deployments',
    method: 'POST',
    path: '/v1/deployments',
    body: JSON.stringify({ projectId }),
    key: apiKey,
    expected: 201,
  };
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const run = async (count: number) => {
    let left = count;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await send(base, agent, warm);
      }),
    );
    return performance.now() - started;
  };
  await run(300);
  const cpuBefore = process.cpuUsage();
  const ms = await run(REQUESTS);
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `${warm.label} (${process.env.BENCH_PROFILE_SERVER ?? 'gateway'}): ${REQUESTS} requests in ${ms.toFixed(0)} ms, ${((REQUESTS / ms) * 1000).toFixed(0)} req/s, ` +
      `${((cpu.user + cpu.system) / 1000 / REQUESTS).toFixed(2)} ms CPU per request (this process)`,
  );
  agent.destroy();
  for (const server of [gateway, minimal]) {
    server.closeAllConnections();
    server.close();
  }
} finally {
  await dynamo.stop();
}
process.exit(0);
