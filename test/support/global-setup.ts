import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { localEnvironment } from '#infra/local/environment.ts';
import { runEsbuildDirectly } from './direct-esbuild.ts';
import { startDnsServer } from './dns-server.ts';
import { STORES_VARIABLE } from './own-tables.ts';
import { startStoreProbe } from './store-probe.ts';
import { startSynthesis } from './synthesized-stack.ts';

// A DynamoDB Local (in memory, on a free port) for each Jest worker: one JVM answers one request at
// a time (its SQLite store), so two workers on one kept it at most of a core while both waited on it,
// and the machine idled at about 85 %. Their settings go into process.env, which the test workers
// inherit; each worker's files use its own (test/support/own-tables-environment.ts). They hold no
// table of their own: each test file makes its own, so no file sees another's items.

interface ProjectConfig {
  displayName?: { name: string };
}

/** The number of files Jest runs at once: `maxWorkers`, 1 with --runInBand (jest.config.js sets 2). */
const maxWorkers = (globalConfig: unknown): number => {
  const config = globalConfig as { maxWorkers?: number; runInBand?: boolean } | undefined;
  return config?.runInBand ? 1 : (config?.maxWorkers ?? 1);
};

export default async function globalSetup(globalConfig: unknown, project?: ProjectConfig): Promise<void> {
  // Every temporary folder of the run (the suites' synthesized templates, CDK's cdk.out*, bundles,
  // data folders) under one, which the teardown removes: the workers and their children inherit
  // TMPDIR, and os.tmpdir() reads it. Without it each run had left gigabytes behind in /tmp. Named
  // after Jest's process, so that test/run.ts can remove it after stopping Jest, when no teardown ran.
  const runTemporary = mkdtempSync(join(tmpdir(), `platform-test-run-${process.pid}-`));
  process.env.TMPDIR = runTemporary;
  // Node's compile cache for every Node process the run starts (the synthesis and the npm and esbuild
  // runs under it, the CLI's, the bundles' cold starts): each compiles the same modules again, and a
  // CLI process started 5 times took 2.2 CPU-s without the cache, 1.0 with it. What a process runs is
  // unchanged; the cache is the run's own and goes with its folder.
  process.env.NODE_COMPILE_CACHE ??= join(runTemporary, 'node-compile-cache');
  (globalThis as { __runTemporary?: string }).__runTemporary = runTemporary;
  // Every bundling of the run calls esbuild itself rather than through npx (test/support/direct-esbuild.ts).
  runEsbuildDirectly(runTemporary);
  // Bundling every function takes longer than any suite: it starts first and runs beside the others.
  // A run of a few files that never read the bundles may leave it out (PLATFORM_TEST_SYNTH=off): it
  // takes a core for a minute.
  // The files that run alone read no bundle (jest.config.js).
  if (process.env.PLATFORM_TEST_SYNTH !== 'off' && project?.displayName?.name !== 'alone')
    (globalThis as { __synthesis?: ReturnType<typeof startSynthesis> }).__synthesis = startSynthesis();
  // As many as the phase runs files at once: the alone phase runs one.
  const stores = project?.displayName?.name === 'alone' ? 1 : Math.max(1, maxWorkers(globalConfig));
  const ports: number[] = [];
  for (let i = 0; i < stores; i += 1) ports.push(await freePort());
  const started = await Promise.all(ports.map((port) => startDynamoDbLocal({ port })));
  const [dynamo] = started;
  if (!dynamo) throw new Error('no DynamoDB Local was started');
  (globalThis as { __dynamoDbLocals?: typeof started }).__dynamoDbLocals = started;
  const probe = process.env.PLATFORM_TEST_STORE_PROBE;
  if (probe)
    (globalThis as { __stopProbe?: () => void }).__stopProbe = startStoreProbe(dynamo.endpoint, probe);
  // No suite's DNS lookup reaches the network: custom domains' checks ask this server, which knows no
  // name. The domains suites start servers of their own.
  const dns = await startDnsServer();
  (globalThis as { __dnsServer?: typeof dns }).__dnsServer = dns;
  Object.assign(process.env, localEnvironment(dynamo.endpoint), {
    [STORES_VARIABLE]: started.map((store) => store.endpoint).join(','),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // JSON access lines whether Jest's output is a terminal or not: suites read them as JSON.
    LOG_FORMAT: process.env.LOG_FORMAT ?? 'json',
    // Every suite calls from 127.0.0.1: the per-address buckets would otherwise throttle one suite
    // because of another. Suites that test those buckets lower the limits in their own module scope.
    ANONYMOUS_RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_MAX: '100000',
    // Two test workers, DynamoDB Local and bursts of fifty password hashes share two cores; in Lambda
    // each request has a CPU of its own. The suites that test the deadline set the default again.
    REQUEST_DEADLINE_MS: '8000',
    DNS_SERVERS: dns.address,
    // The suites' own syntheses skip CDK's built-in template validation: its WASM engine starts again
    // in every test file (each has a module registry of its own), 7 of a first synthesis's 8 CPU-s
    // here. The run's synthesis, started above before this is set, validates as `cdk synth` does.
    CDK_VALIDATION: 'false',
  });
}
