// `npm run bench`: the functions against floors measured in the same run, as ratios.
//   Cold: every bundle `cdk deploy` would ship against a bare handler bundled by the same CDK code
//   (the DynamoDB clients and one GetItem): size, gzip size, cold `require`, and the first
//   invocation (require + one call on DynamoDB Local), medians of interleaved rounds. The first
//   invocations of get-project and create-deployment are also set against the SDK making their
//   own calls (bare-calls-handler.ts): the summary's "vs the same calls".
//   Warm: GET /v1/projects/{id} and POST /v1/deployments through the local gateway against a
//   minimal node:http server making the same DynamoDB calls: p50 latency and throughput.
// BENCH_ROUNDS (cold, default 15) and BENCH_WARM_ROUNDS (default 16) trade time for precision;
// BENCH_FUNCTIONS=create-environment-variable,replace-environment measures only those (and the bare
// handlers) cold, to compare a change to a few functions in minutes.
// BENCH_CREDENTIALS=sdk bundles the functions with the SDK's default credential chain (as before
// infra/lambda/credentials.ts), to compare.
import './quiet.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, localClient, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { ensureTables } from '#infra/local/ensure-tables.ts';
import { localEnvironment } from '#infra/local/environment.ts';
import { createGateway } from '#infra/local/gateway.ts';
import { coldRounds } from './cold-rounds.ts';
import { createMinimalServer } from './minimal-server.ts';
import { printReport } from './report.ts';
import { makeBenchData } from './setup.ts';
import { startStandIns } from './stand-ins.ts';
import { synthesize } from './synth.ts';
import { listen } from './warm.ts';
import { warmPhase } from './warm-phase.ts';

const COLD_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 16);
const ONLY = process.env.BENCH_FUNCTIONS?.split(',').map((name) => name.trim());
const WARM_PER_ROUND = { sequential: 20, concurrent: 200 };

const outdir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
const dynamo = await startDynamoDbLocal({ port: await freePort() });
try {
  Object.assign(process.env, localEnvironment(dynamo.endpoint), {
    AUTH_RATE_LIMIT_MAX: '100000',
    ANONYMOUS_RATE_LIMIT_MAX: '100000',
  });
  const client = localClient(dynamo.endpoint);
  await ensureTables(client);
  client.destroy();

  const sdkCredentialChain = process.env.BENCH_CREDENTIALS === 'sdk';
  const chain = sdkCredentialChain ? "the SDK's default credential chain" : 'their credential chain';
  console.log(`Node ${process.version}; bundling the functions (with ${chain}) and the bare handler...`);
  const synthesized = synthesize(outdir, { sdkCredentialChain });

  // Loaded after the settings above: the store's clients read them when they load.
  const gateway = await createGateway();
  const minimal = createMinimalServer();
  const servers = { gateway: await listen(gateway), minimal: await listen(minimal) };
  const data = await makeBenchData(servers.gateway, COLD_ROUNDS);

  console.log(`cold: the functions and the bare handlers (4 bundles, 5 rows) x ${COLD_ROUNDS} rounds...`);
  const standIns = await startStandIns();
  const cold = await coldRounds(synthesized, data, dynamo.endpoint, standIns, COLD_ROUNDS, ONLY);
  await standIns.close();
  console.log(`warm: 2 requests x 2 servers x ${WARM_ROUNDS} rounds...\n`);
  const warm = await warmPhase(servers, data, WARM_ROUNDS, WARM_PER_ROUND);
  printReport(cold, warm);

  for (const server of [gateway, minimal]) {
    server.closeAllConnections();
    server.close();
  }
} finally {
  await dynamo.stop();
  rmSync(outdir, { recursive: true, force: true });
}
// The store's clients keep sockets open; nothing else is left to wait for.
process.exit(0);
