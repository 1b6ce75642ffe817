// `npm run bench:cost`: what one request of each route costs. Every DynamoDB call goes through a
// metering step in front of DynamoDB Local that asks it for its consumed capacity (table and each
// index, ./metering-proxy.ts); the requests go through the local gateway, the handlers Lambda runs.
// Per route: calls, capacity units, the Lambda GB-seconds at the measured duration and the route's
// memory, and the cost per million requests at the list prices below; then a deployment's life.
// BENCH_COST_ROUNDS (default 5) requests per route; the figures are the median round's. The routes
// act in the admin's personal team, or with BENCH_TEAM=shared in a shared team of theirs; the keyed
// read and the deployment are measured in both either way.
import './quiet.ts';
import { freePort, localClient, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { ensureTables } from '#infra/local/ensure-tables.ts';
import { localEnvironment } from '#infra/local/environment.ts';
import { createGateway } from '#infra/local/gateway.ts';
import { routes } from '#shared/routes.ts';
import { functionMemoryMb } from '#shared/runtime/function-settings.ts';
import { useLocalDeliveryQueue } from '#shared/webhooks/delivery-queue.ts';
import { type MeteredCall, startMeteringProxy } from './metering-proxy.ts';
import { type BenchRequest, type BenchTeam, requestFor } from './requests.ts';
import { type BenchSetup, disposablesFor, makeBenchData } from './setup.ts';
import { median } from './stats.ts';
import { listen } from './warm.ts';

const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 5);

/**
 * List prices, US East (N. Virginia), as AWS publishes them (checked 2026-11): DynamoDB on-demand
 * (Standard table class) per million request units; Lambda on arm64 per GB-second (first tier) and
 * per million requests; API Gateway REST APIs per million requests (first 333 million a month); AWS
 * WAF per million requests inspected (the web ACL's and rules' monthly fees are fixed, left out).
 */
const PRICES = {
  dynamoWriteUnitsPerMillion: 0.625,
  dynamoReadUnitsPerMillion: 0.125,
  lambdaGbSecond: 0.0000133334,
  lambdaRequestsPerMillion: 0.2,
  apiGatewayRestPerMillion: 3.5,
  wafPerMillion: 0.6,
};

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

interface Measured {
  label: string;
  calls: string[];
  readUnits: number;
  writeUnits: number;
  /** Units per table and per index (`deployments/byProject`), in the order first met. */
  where: Map<string, number>;
  durationMs: number;
  memoryMb: number;
}

const shortName = (table: string): string => table.replace(/^platform-/, '');

function measuredOf(label: string, calls: MeteredCall[], durationMs: number, memoryMb: number): Measured {
  const where = new Map<string, number>();
  const add = (name: string, units = 0) => where.set(name, (where.get(name) ?? 0) + units);
  let readUnits = 0;
  let writeUnits = 0;
  for (const call of calls) {
    for (const consumed of call.consumed) {
      const table = shortName(consumed.TableName ?? '?');
      const total = consumed.CapacityUnits ?? 0;
      if (READS.has(call.operation)) readUnits += total;
      else writeUnits += total;
      add(table, consumed.Table?.CapacityUnits ?? (consumed.GlobalSecondaryIndexes ? 0 : total));
      for (const [index, units] of Object.entries(consumed.GlobalSecondaryIndexes ?? {})) {
        add(`${table}/${index}`, units.CapacityUnits);
      }
    }
  }
  return {
    label,
    calls: calls.map((call) => call.operation),
    readUnits,
    writeUnits,
    where,
    durationMs,
    memoryMb,
  };
}

const units = (measured: Measured): number => measured.readUnits + measured.writeUnits;

/** Lambda bills whole milliseconds. */
const gbSeconds = (m: Measured): number => (m.memoryMb / 1024) * (Math.ceil(m.durationMs) / 1000);

function dollarsPerMillion(m: Measured) {
  const dynamo =
    m.readUnits * PRICES.dynamoReadUnitsPerMillion + m.writeUnits * PRICES.dynamoWriteUnitsPerMillion;
  const lambda = PRICES.lambdaRequestsPerMillion + gbSeconds(m) * PRICES.lambdaGbSecond * 1e6;
  const total = dynamo + lambda + PRICES.apiGatewayRestPerMillion + PRICES.wafPerMillion;
  return { dynamo, lambda, total };
}

const num = (value: number, digits = 1): string => value.toFixed(digits).replace(/\.0+$/, '');

function line(m: Measured): string {
  const cost = dollarsPerMillion(m);
  const breakdown = [...m.where].map(([name, value]) => `${name} ${num(value)}`).join(', ');
  return [
    m.label.padEnd(60),
    String(m.calls.length).padStart(5),
    num(units(m)).padStart(6),
    num(m.readUnits).padStart(5),
    num(m.writeUnits).padStart(5),
    m.durationMs.toFixed(1).padStart(7),
    String(m.memoryMb).padStart(5),
    gbSeconds(m).toFixed(5).padStart(8),
    cost.dynamo.toFixed(2).padStart(7),
    cost.lambda.toFixed(2).padStart(7),
    cost.total.toFixed(2).padStart(7),
    `  ${breakdown}`,
  ].join(' ');
}

const HEADER = [
  'request'.padEnd(60),
  'calls'.padStart(5),
  'units'.padStart(6),
  'read'.padStart(5),
  'write'.padStart(5),
  'ms'.padStart(7),
  'MB'.padStart(5),
  'GB-s'.padStart(8),
  '$DDB/M'.padStart(7),
  '$λ/M'.padStart(7),
  '$/M'.padStart(7),
  '  units by table and index',
].join(' ');

/** The sum of a deployment's requests: units, calls and the dollars of all three (per million lives). */
function lifeLine(whole: Measured, steps: Measured[]): string {
  const costs = steps.map(dollarsPerMillion);
  const sum = (pick: (cost: ReturnType<typeof dollarsPerMillion>) => number) =>
    costs.reduce((total, cost) => total + pick(cost), 0);
  const breakdown = [...whole.where].map(([name, value]) => `${name} ${num(value)}`).join(', ');
  return [
    whole.label.padEnd(60),
    String(whole.calls.length).padStart(5),
    num(units(whole)).padStart(6),
    num(whole.readUnits).padStart(5),
    num(whole.writeUnits).padStart(5),
    steps
      .reduce((total, step) => total + step.durationMs, 0)
      .toFixed(1)
      .padStart(7),
    ''.padStart(5),
    steps
      .reduce((total, step) => total + gbSeconds(step), 0)
      .toFixed(5)
      .padStart(8),
    sum((cost) => cost.dynamo)
      .toFixed(2)
      .padStart(7),
    sum((cost) => cost.lambda)
      .toFixed(2)
      .padStart(7),
    sum((cost) => cost.total)
      .toFixed(2)
      .padStart(7),
    `  ${breakdown}`,
  ].join(' ');
}

/** The round whose units are the median (ties: the first), so a window change in one round does not skew it. */
function medianRound(rounds: Measured[]): Measured {
  const middle = median(rounds.map(units));
  const chosen = rounds.find((round) => units(round) === middle) ?? rounds[0];
  if (!chosen) throw new Error('no rounds');
  return { ...chosen, durationMs: median(rounds.map((round) => round.durationMs)) };
}

const dynamo = await startDynamoDbLocal({ port: await freePort() });
const proxy = await startMeteringProxy(dynamo.endpoint);
try {
  Object.assign(process.env, localEnvironment(proxy.endpoint), {
    AUTH_RATE_LIMIT_MAX: '100000',
    ANONYMOUS_RATE_LIMIT_MAX: '100000',
  });
  const client = localClient(dynamo.endpoint);
  await ensureTables(client);
  client.destroy();

  // Loaded after the settings above: the store's clients read them when they load.
  // The ping's message is accepted and dropped: what a queue costs is not DynamoDB's.
  useLocalDeliveryQueue({ send: async () => undefined });
  const gateway = await createGateway();
  const base = await listen(gateway);
  const data = await makeBenchData(base, ROUNDS);
  /** A path of the versioned API in the team the bench's requests act in. */
  const inTeam = (path: string, set: BenchSetup = data) =>
    set.actsIn === 'shared' ? `${path}${path.includes('?') ? '&' : '?'}teamId=${set.teamId}` : path;

  const send = async (request: BenchRequest) => {
    proxy.take();
    const started = performance.now();
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: {
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(request.key ? { Authorization: `Bearer ${request.key}` } : {}),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    const durationMs = performance.now() - started;
    if (!request.expected.includes(response.status)) {
      throw new Error(`${request.method} ${request.path} answered ${response.status}`);
    }
    return { calls: proxy.take(), durationMs, text };
  };

  const rows: Measured[] = [];
  for (const route of routes) {
    const label = `${route.method === 'ANY' ? 'GET' : route.method} ${route.api === 'platform' ? '/v1' : ''}${route.path}`;
    const rounds: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const request = requestFor(route, data, round, await disposablesFor(route, data, round));
      const { calls, durationMs } = await send(request);
      rounds.push(measuredOf(label, calls, durationMs, functionMemoryMb(route)));
    }
    rows.push(medianRound(rounds));
  }

  // A deployment's life: created, then building, then ready, each by its own request.
  const routeOf = (method: string, path: string) => {
    const found = routes.find((route) => route.method === method && route.path === path);
    if (!found) throw new Error(`no route ${method} ${path}`);
    return found;
  };
  const life: Measured[][] = [[], [], []];
  for (let round = 0; round < ROUNDS; round++) {
    const key = data.adminKey;
    const create = {
      method: 'POST',
      path: inTeam('/v1/deployments'),
      body: { projectId: data.projectId },
      key,
      expected: [201],
    };
    const created = await send(create);
    const { id } = JSON.parse(created.text) as { id: string };
    const steps = [
      {
        label: 'POST /v1/deployments',
        calls: created.calls,
        durationMs: created.durationMs,
        route: routeOf('POST', '/deployments'),
      },
    ];
    for (const status of ['building', 'ready']) {
      const report = {
        method: 'POST',
        path: inTeam(`/v1/deployments/${id}/events`),
        body: { status },
        key,
        expected: [200],
      };
      const sent = await send(report);
      steps.push({
        label: `POST /v1/deployments/{id}/events ${status}`,
        calls: sent.calls,
        durationMs: sent.durationMs,
        route: routeOf('POST', '/deployments/{id}/events'),
      });
    }
    steps.forEach((step, index) => {
      life[index]?.push(measuredOf(step.label, step.calls, step.durationMs, functionMemoryMb(step.route)));
    });
  }
  const lifeRows = life.map(medianRound);
  const whole: Measured = {
    label: "a deployment's life (create, building, ready)",
    calls: lifeRows.flatMap((row) => row.calls),
    readUnits: lifeRows.reduce((sum, row) => sum + row.readUnits, 0),
    writeUnits: lifeRows.reduce((sum, row) => sum + row.writeUnits, 0),
    where: new Map(),
    durationMs: 0,
    memoryMb: 0,
  };
  for (const row of lifeRows)
    for (const [name, value] of row.where) whole.where.set(name, (whole.where.get(name) ?? 0) + value);

  // Lists narrowed by each filter: what each costs to read (the admin's project has a few deployments).
  const listRows: Measured[] = [];
  const lists = [
    '/v1/deployments?status=queued',
    '/v1/deployments?status=ready,error',
    '/v1/deployments?branch=main',
    '/v1/deployments?status=queued&branch=main',
    `/v1/deployments?projectId=${data.projectId}`,
    `/v1/projects/${data.projectId}/deployments?status=queued`,
    `/v1/projects/${data.projectId}/deployments?branch=main&status=queued,building`,
  ];
  for (const path of lists) {
    const rounds: Measured[] = [];
    const route = path.startsWith('/v1/projects')
      ? routeOf('GET', '/projects/{id}/deployments')
      : routeOf('GET', '/deployments');
    for (let round = 0; round < ROUNDS; round++) {
      const sent = await send({ method: 'GET', path: inTeam(path), key: data.adminKey, expected: [200] });
      const label = `GET ${path.replace(data.projectId, '{p}')}`;
      rounds.push(measuredOf(label, sent.calls, sent.durationMs, functionMemoryMb(route)));
    }
    listRows.push(medianRound(rounds));
  }

  // The hot paths in either team: a shared team's membership is read beside the resource.
  const teamRows: Measured[] = [];
  const sets: Record<BenchTeam, BenchSetup> = {
    personal: data.actsIn === 'personal' ? data : await makeBenchData(base, 0, 'personal'),
    shared: data.actsIn === 'shared' ? data : await makeBenchData(base, 0, 'shared'),
  };
  for (const [team, set] of Object.entries(sets)) {
    const hot = [
      {
        label: 'GET /v1/projects/{id}',
        method: 'GET',
        path: `/v1/projects/${set.projectId}`,
        route: routeOf('GET', '/projects/{id}'),
        expected: [200],
      },
      {
        label: 'POST /v1/deployments',
        method: 'POST',
        path: '/v1/deployments',
        body: { projectId: set.projectId },
        route: routeOf('POST', '/deployments'),
        expected: [201],
      },
    ];
    for (const { label, route, ...request } of hot) {
      const rounds: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const sent = await send({ ...request, path: inTeam(request.path, set), key: set.adminKey });
        rounds.push(
          measuredOf(`${label} in a ${team} team`, sent.calls, sent.durationMs, functionMemoryMb(route)),
        );
      }
      teamRows.push(medianRound(rounds));
    }
  }

  console.log(
    `Capacity units as DynamoDB Local reports them (ReturnConsumedCapacity INDEXES on every call), median of ${ROUNDS} rounds;`,
  );
  console.log(
    `ms: the request's round trip through the local gateway; $/M: per million requests at ${JSON.stringify(PRICES)}`,
  );
  console.log('($/M = DynamoDB + Lambda (requests and GB-s) + API Gateway REST + WAF)\n');
  console.log(`The routes act in the admin's ${data.actsIn} team (BENCH_TEAM).\n`);
  console.log(HEADER);
  for (const row of rows) console.log(line(row));
  console.log("\nA deployment (the admin's key; its project already read by the create):");
  for (const row of lifeRows) console.log(line(row));
  console.log(lifeLine(whole, lifeRows));
  console.log('\nFiltered lists:');
  for (const row of listRows) console.log(line(row));
  console.log("\nIn the admin's personal team and in a shared team of theirs:");
  for (const row of teamRows) console.log(line(row));

  gateway.closeAllConnections();
  gateway.close();
} finally {
  await proxy.close();
  await dynamo.stop();
}
// The store's clients keep sockets open; nothing else is left to wait for.
process.exit(0);
