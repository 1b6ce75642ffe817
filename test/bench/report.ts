import type { ColdRow, ColdRows, ColdSample } from './cold-rounds.ts';
import { kib, median, ms, percentile, times } from './stats.ts';
import type { WarmPhase } from './warm-phase.ts';

// The bench's output: one table of cold figures against the bare handler, one line per warm
// comparison, and the summary line of ratios the goals are stated in.
//
// Cold ratios are medians of per-round ratios: each round's sample over the bare handler's sample
// of the same round, so that load which comes and goes during the run cancels out. The require is
// and the first invocation are reported in wall time and in CPU time: another process's load on
// the machine distorts CPU time far less (see test/support/lambda-bundles.ts), and the summary
// gives the require in CPU time and the first invocation both ways (its wall time includes the
// store's answers, which CPU time leaves out).

/** The function the first-invocation goal is about: two calls (authenticate and count, then the project). */
const KEY_READ = 'get-project';

type Metric = 'requireMs' | 'requireCpuMs' | 'firstInvocationMs' | 'firstInvocationCpuMs';

interface ColdRatios {
  label: string;
  size: number;
  gzip: number;
  requireMs: number;
  requireCpuMs: number;
  firstInvocationMs: number;
  firstInvocationCpuMs: number;
  /** Quartiles of the per-round first-invocation ratios: how much to trust the median. */
  firstSpread: [number, number];
}

const of = (row: ColdRow, metric: Metric) => median(row.samples.map((sample: ColdSample) => sample[metric]));

function pairedRatios(row: ColdRow, bare: ColdRow, metric: Metric): number[] {
  return row.samples.flatMap((sample, round) => {
    const reference = bare.samples[round];
    return reference ? [sample[metric] / reference[metric]] : [];
  });
}

function ratiosOf(row: ColdRow, bare: ColdRow): ColdRatios {
  const first = pairedRatios(row, bare, 'firstInvocationMs');
  return {
    label: row.label,
    size: row.bytes / bare.bytes,
    gzip: row.gzipBytes / bare.gzipBytes,
    requireMs: median(pairedRatios(row, bare, 'requireMs')),
    requireCpuMs: median(pairedRatios(row, bare, 'requireCpuMs')),
    firstInvocationMs: median(first),
    firstInvocationCpuMs: median(pairedRatios(row, bare, 'firstInvocationCpuMs')),
    firstSpread: [percentile(first, 0.25), percentile(first, 0.75)],
  };
}

const LABEL_WIDTH = 44;

function coldLine(row: ColdRow, bare: ColdRow): string {
  const ratios = ratiosOf(row, bare);
  const outcomes = [...new Set(row.samples.map((sample) => sample.outcome))];
  const unexpected = outcomes.some((outcome) => !row.expected.includes(outcome));
  const label = row.label.length < LABEL_WIDTH ? row.label : `${row.label.slice(0, LABEL_WIDTH - 2)}…`;
  const pair = (value: string, ratio: number) => `${value.padStart(9)}${times(ratio).padStart(7)}`;
  return [
    label.padEnd(LABEL_WIDTH),
    pair(kib(row.bytes), ratios.size),
    pair(kib(row.gzipBytes), ratios.gzip),
    pair(ms(of(row, 'requireMs')), ratios.requireMs),
    pair(ms(of(row, 'requireCpuMs')), ratios.requireCpuMs),
    pair(ms(of(row, 'firstInvocationMs')), ratios.firstInvocationMs),
    pair(ms(of(row, 'firstInvocationCpuMs')), ratios.firstInvocationCpuMs),
    `  ${outcomes.join('/')}${unexpected ? ' UNEXPECTED' : ''}`,
  ].join('');
}

function printCold(cold: ColdRows): void {
  const head = ['size', 'gzip', 'require', 'require cpu', 'first call', 'first call cpu'].map((title) =>
    title.padStart(16),
  );
  console.log(`${'bundle'.padEnd(LABEL_WIDTH)}${head.join('')}  outcome`);
  const sameCalls = cold.sameCalls.map(({ row }) => row);
  for (const row of [cold.bare, cold.bareUntraced, cold.bareLean, ...sameCalls, ...cold.functions]) {
    console.log(coldLine(row, cold.bare));
  }
  for (const name of cold.skipped) console.log(`(not ours, not measured: ${name})`);
  console.log('(the same function, for the cost of readable stack traces; not in the summary)');
  for (const row of cold.variants) console.log(coldLine(row, cold.bare));
  console.log(
    `(medians of ${cold.bare.samples.length} cold starts each; ratios: medians of per-round ratios to the first row)\n`,
  );
}

function printWarm(warm: WarmPhase): void {
  for (const result of warm.results) {
    const side = (name: 'gateway' | 'minimal') =>
      `${name} p50 ${ms(median(result.latencyMs[name]))} p95 ${ms(percentile(result.latencyMs[name], 0.95))} ${median(result.requestsPerSecond[name]).toFixed(0)} req/s`;
    console.log(`${result.label.padEnd(24)} ${side('gateway')}; ${side('minimal')}`);
  }
  for (const mismatch of warm.callMismatches)
    console.log(`WARNING: the minimal server's calls differ: ${mismatch}`);
}

function warmRatios(warm: WarmPhase, label: string): { p50: string; throughput: string } {
  const result = warm.results.find((candidate) => candidate.label.startsWith(label));
  if (!result) return { p50: 'n/a', throughput: 'n/a' };
  const { latencyMs: l, requestsPerSecond: r } = result;
  return {
    p50: times(median(l.gateway) / median(l.minimal)),
    throughput: times(median(r.gateway) / median(r.minimal)),
  };
}

export function printReport(cold: ColdRows, warm: WarmPhase): void {
  printCold(cold);
  printWarm(warm);
  const ratios = cold.functions.map((row) => ratiosOf(row, cold.bare));
  const untraced = cold.functions.map((row) => ratiosOf(row, cold.bareUntraced));
  // The range over the functions, and which one is the worst.
  const range = (key: 'size' | 'gzip' | 'requireCpuMs', of = ratios): string => {
    const sorted = [...of].sort((a, b) => a[key] - b[key]);
    const [low, high] = [sorted[0], sorted.at(-1)];
    if (!low || !high) return 'n/a';
    return `${low[key].toFixed(2)}–${times(high[key])} (max ${high.label.split(' ')[0]})`;
  };
  const keyRead = ratios.find((row) => row.label.split(' ')[0] === KEY_READ);
  const first = keyRead
    ? `${times(keyRead.firstInvocationMs)} [IQR ${keyRead.firstSpread.map((value) => value.toFixed(2)).join('–')}] cpu ${times(keyRead.firstInvocationCpuMs)}`
    : 'n/a';
  const [get, post] = [warmRatios(warm, 'GET'), warmRatios(warm, 'POST')];
  // The first invocation against the SDK making the same calls: what the chain itself costs.
  const againstSameCalls = cold.sameCalls.flatMap(({ handler, row: floor }) => {
    const row = cold.functions.find((candidate) => candidate.label.split(' ')[0] === handler);
    if (!row) return [];
    const ratio = ratiosOf(row, floor);
    return [`${handler} ${times(ratio.firstInvocationMs)} cpu ${times(ratio.firstInvocationCpuMs)}`];
  });
  console.log(
    `\nSUMMARY size ${range('size')} gzip ${range('gzip')} require(cpu) ${range('requireCpuMs')}` +
      ` | vs the bare without keepNames, maps: size ${range('size', untraced)} require(cpu) ${range('requireCpuMs', untraced)}` +
      ` | first invocation get-project ${first}` +
      ` | vs the same calls: ${againstSameCalls.join(', ') || 'n/a'}` +
      ` | warm p50 GET ${get.p50} POST ${post.p50} | throughput GET ${get.throughput} POST ${post.throughput}`,
  );
}
