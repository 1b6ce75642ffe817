import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { newId } from '#shared/model/ids.ts';
import {
  type ColdInvocation,
  invokeCold,
  lambdaEnvironment,
  type SynthesizedFunction,
} from '../support/lambda-bundles.ts';
import type { SameCallsEvent } from './bare-calls-handler.ts';
import { eventFor, noOpEventOf, outcomeOf, requestFor, routeOfFunction } from './requests.ts';
import { type BenchSetup, disposablesFor } from './setup.ts';
import type { StandIns } from './stand-ins.ts';
import { rotated } from './stats.ts';
import type { Synthesized } from './synth.ts';

// Every bundle cold-started once per round, the bundles in a rotating order, so that whatever
// drifts during the run (the machine's load, DynamoDB Local's JIT, the tables' size) falls on all
// of them alike; a round's samples are compared with the bare handler's of the same round.

/** `outcome`: the HTTP status of a route's answer, or what a consumer's answer was (requests.ts). */
export type ColdSample = Omit<ColdInvocation, 'result'> & { outcome: string };

export interface ColdRow {
  /** `get-project GET /projects/{id}`: the handler and the row its event is for. */
  label: string;
  bytes: number;
  gzipBytes: number;
  /** One per round, in round order. */
  samples: ColdSample[];
  /** Outcomes of a successful invocation. */
  expected: string[];
}

interface Plan {
  row: ColdRow;
  fn: SynthesizedFunction;
  eventOf: (round: number) => Promise<unknown>;
  /** Its route streams its answer (`streams` in shared/routes.ts): invoked as the runtime streams. */
  streams?: boolean;
}

function planOf(fn: SynthesizedFunction, label: string, eventOf: Plan['eventOf'], expected: string[]): Plan {
  const code = readFileSync(fn.bundle);
  return {
    row: { label, bytes: code.byteLength, gzipBytes: gzipSync(code).byteLength, samples: [], expected },
    fn,
    eventOf,
  };
}

/**
 * A function's plan: a route's gets a real request; a consumer or the custom resource an event it
 * answers without a call (so its first invocation is its cold start and a no-op); a function that
 * is not ours (CDK's provider framework) none.
 */
function functionPlan(fn: SynthesizedFunction, data: BenchSetup): Plan | undefined {
  const route = routeOfFunction(fn.name);
  if (!route) {
    const noOp = noOpEventOf(fn.name);
    return noOp && planOf(fn, noOp.label, async () => noOp.event, noOp.expected);
  }
  // Fresh keys (and whatever else the request uses up) for every invocation, made before its
  // process starts: not timed.
  const eventOf = async (round: number) => {
    const request = requestFor(route, data, round, await disposablesFor(route, data, round));
    return eventFor(request, round);
  };
  return {
    ...planOf(
      fn,
      `${route.handler} ${route.method} ${route.path}`,
      eventOf,
      requestFor(route, data, 0).expected.map(String),
    ),
    streams: route.streams === true,
  };
}

export interface ColdRows {
  bare: ColdRow;
  bareUntraced: ColdRow;
  bareLean: ColdRow;
  /** The bare SDK making the calls of a keyed read and of a deployment (bare-calls-handler.ts), by the function whose calls they are. */
  sameCalls: { handler: string; row: ColdRow }[];
  functions: ColdRow[];
  /** Variants of one function (test/bench/synth.ts), outside the summary. */
  variants: ColdRow[];
  /** Functions in the stack that are not ours (CDK's), by description: not measured. */
  skipped: string[];
}

/** Cold starts of the bare handlers and every function, or only those named in `only`. */
export async function coldRounds(
  synthesized: Synthesized,
  data: BenchSetup,
  endpoint: string,
  standIns: StandIns,
  rounds: number,
  only?: readonly string[],
): Promise<ColdRows> {
  const bareEvent = async () => ({ ownerId: data.partition, id: data.projectId });
  const bare = planOf(synthesized.bare, synthesized.bare.name, bareEvent, ['200']);
  const bareUntraced = planOf(synthesized.bareUntraced, synthesized.bareUntraced.name, bareEvent, ['200']);
  const bareLean = planOf(synthesized.bareLean, synthesized.bareLean.name, bareEvent, ['200']);
  // One key record of the bench's own, counted every round as admission counts a key.
  const sameCallsEvent = (deploys: boolean) => async (): Promise<SameCallsEvent> => ({
    keyHash: 'bench-same-calls',
    ownerId: data.partition,
    projectId: data.projectId,
    ...(deploys ? { deploymentId: newId('dpl') } : {}),
  });
  const sameCalls = [
    { handler: 'get-project', label: "bare handler, get-project's 2 calls", deploys: false },
    { handler: 'create-deployment', label: "bare handler, create-deployment's 3 calls", deploys: true },
  ].map(({ handler, label, deploys }) => ({
    handler,
    plan: planOf(synthesized.bareCalls, label, sameCallsEvent(deploys), [deploys ? '201' : '200']),
  }));
  const planned = synthesized.functions
    .filter((fn) => only === undefined || only.some((handler) => fn.name === describeFunction(handler)))
    .map((fn) => ({ fn, plan: functionPlan(fn, data) }));
  const functions = planned.flatMap(({ plan }) => (plan ? [plan] : []));
  const skipped = planned.flatMap(({ fn, plan }) => (plan ? [] : [fn.name]));
  const variants = (only === undefined ? synthesized.variants : []).flatMap(({ label, fn }) => {
    const plan = functionPlan(fn, data);
    if (!plan) throw new Error(`The variant ${label} is of no function the bench knows`);
    plan.row.label = label;
    return [plan];
  });
  const plans = [
    bare,
    bareUntraced,
    bareLean,
    ...sameCalls.map(({ plan }) => plan),
    ...functions,
    ...variants,
  ];
  for (let round = 0; round < rounds; round++) {
    for (const { row, fn, eventOf, streams } of rotated(plans, round)) {
      const event = await eventOf(round);
      const env = { ...lambdaEnvironment(fn.variables, endpoint), ...standIns.environmentFor(fn.variables) };
      const { result, ...times } = await invokeCold(fn.bundle, env, event, { streams: streams === true });
      row.samples.push({ ...times, outcome: outcomeOf(result) });
    }
  }
  const rows = (list: Plan[]) => list.map((plan) => plan.row);
  return {
    bare: bare.row,
    bareUntraced: bareUntraced.row,
    bareLean: bareLean.row,
    sameCalls: sameCalls.map(({ handler, plan }) => ({ handler, row: plan.row })),
    functions: rows(functions),
    variants: rows(variants),
    skipped,
  };
}
