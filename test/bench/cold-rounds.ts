import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { type ColdSample, coldStart, lambdaEnvironment } from './cold.ts';
import { eventFor, requestFor, routeOfFunction } from './requests.ts';
import type { BenchSetup } from './setup.ts';
import { rotated } from './stats.ts';
import type { Synthesized, SynthesizedFunction } from './synth.ts';

// Every bundle cold-started once per round, the bundles in a rotating order, so that whatever
// drifts during the run (the machine's load, DynamoDB Local's JIT, the tables' size) falls on all
// of them alike.

export interface ColdRow {
  /** `get-project GET /projects/{id}`: the handler and the row its event is for. */
  label: string;
  bytes: number;
  gzipBytes: number;
  samples: ColdSample[];
  /** Statuses of a successful invocation. */
  expected: number[];
}

interface Plan {
  row: ColdRow;
  fn: SynthesizedFunction;
  eventOf: (round: number) => unknown;
}

function planOf(fn: SynthesizedFunction, label: string, eventOf: Plan['eventOf'], expected: number[]): Plan {
  const code = readFileSync(fn.bundle);
  return {
    row: { label, bytes: code.byteLength, gzipBytes: gzipSync(code).byteLength, samples: [], expected },
    fn,
    eventOf,
  };
}

/** Cold starts of the bare handlers and every function; rows in that order, the reference first. */
export async function coldRounds(
  synthesized: Synthesized,
  data: BenchSetup,
  endpoint: string,
  rounds: number,
): Promise<{ bare: ColdRow; bareLean: ColdRow; functions: ColdRow[] }> {
  const bareEvent = () => ({ ownerId: data.ownerId, id: data.projectId });
  const bare = planOf(synthesized.bare, synthesized.bare.name, bareEvent, [200]);
  const bareLean = planOf(synthesized.bareLean, synthesized.bareLean.name, bareEvent, [200]);
  const functions = synthesized.functions.map((fn) => {
    const route = routeOfFunction(fn.name);
    if (!route) throw new Error(`No route row for the function ${fn.name}`);
    const label = `${route.handler} ${route.method} ${route.path}`;
    const eventOf = (round: number) => eventFor(requestFor(route, data, round), round);
    return planOf(fn, label, eventOf, requestFor(route, data, 0).expected);
  });
  const plans = [bare, bareLean, ...functions];
  for (let round = 0; round < rounds; round++) {
    for (const { row, fn, eventOf } of rotated(plans, round)) {
      row.samples.push(await coldStart(fn.bundle, lambdaEnvironment(fn.variables, endpoint), eventOf(round)));
    }
  }
  return { bare: bare.row, bareLean: bareLean.row, functions: functions.map((plan) => plan.row) };
}
