import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import {
  type ColdInvocation,
  invokeCold,
  lambdaEnvironment,
  type SynthesizedFunction,
} from '../support/lambda-bundles.ts';
import { changesDeployment, eventFor, requestFor, routeOfFunction } from './requests.ts';
import type { BenchSetup } from './setup.ts';
import { rotated } from './stats.ts';
import type { Synthesized } from './synth.ts';

// Every bundle cold-started once per round, the bundles in a rotating order, so that whatever
// drifts during the run (the machine's load, DynamoDB Local's JIT, the tables' size) falls on all
// of them alike; a round's samples are compared with the bare handler's of the same round.

export type ColdSample = Omit<ColdInvocation, 'result'> & { status: number };

export interface ColdRow {
  /** `get-project GET /projects/{id}`: the handler and the row its event is for. */
  label: string;
  bytes: number;
  gzipBytes: number;
  /** One per round, in round order. */
  samples: ColdSample[];
  /** Statuses of a successful invocation. */
  expected: number[];
}

interface Plan {
  row: ColdRow;
  fn: SynthesizedFunction;
  eventOf: (round: number) => Promise<unknown>;
}

function planOf(fn: SynthesizedFunction, label: string, eventOf: Plan['eventOf'], expected: number[]): Plan {
  const code = readFileSync(fn.bundle);
  return {
    row: { label, bytes: code.byteLength, gzipBytes: gzipSync(code).byteLength, samples: [], expected },
    fn,
    eventOf,
  };
}

function functionPlan(fn: SynthesizedFunction, data: BenchSetup): Plan {
  const route = routeOfFunction(fn.name);
  if (!route) throw new Error(`No route row for the function ${fn.name}`);
  // Fresh keys (and deployment) for every invocation, made before its process starts: not timed.
  const eventOf = async (round: number) => {
    const [caller, spare] = [await data.issueKey(), await data.issueKey()];
    const disposables = { key: caller.apiKey, spareKeyId: spare.id };
    const deploymentId = changesDeployment(route) ? await data.newDeployment() : undefined;
    return eventFor(requestFor(route, data, round, { ...disposables, deploymentId }), round);
  };
  return planOf(
    fn,
    `${route.handler} ${route.method} ${route.path}`,
    eventOf,
    requestFor(route, data, 0).expected,
  );
}

export interface ColdRows {
  bare: ColdRow;
  bareLean: ColdRow;
  functions: ColdRow[];
  /** Variants of one function (test/bench/synth.ts), outside the summary. */
  variants: ColdRow[];
}

/** Cold starts of the bare handlers and every function. */
export async function coldRounds(
  synthesized: Synthesized,
  data: BenchSetup,
  endpoint: string,
  rounds: number,
): Promise<ColdRows> {
  const bareEvent = async () => ({ ownerId: data.ownerId, id: data.projectId });
  const bare = planOf(synthesized.bare, synthesized.bare.name, bareEvent, [200]);
  const bareLean = planOf(synthesized.bareLean, synthesized.bareLean.name, bareEvent, [200]);
  const functions = synthesized.functions.map((fn) => functionPlan(fn, data));
  const variants = synthesized.variants.map(({ label, fn }) => {
    const plan = functionPlan(fn, data);
    plan.row.label = label;
    return plan;
  });
  const plans = [bare, bareLean, ...functions, ...variants];
  for (let round = 0; round < rounds; round++) {
    for (const { row, fn, eventOf } of rotated(plans, round)) {
      const event = await eventOf(round);
      const { result, ...times } = await invokeCold(
        fn.bundle,
        lambdaEnvironment(fn.variables, endpoint),
        event,
      );
      row.samples.push({ ...times, status: result.statusCode });
    }
  }
  const rows = (list: Plan[]) => list.map((plan) => plan.row);
  return { bare: bare.row, bareLean: bareLean.row, functions: rows(functions), variants: rows(variants) };
}
