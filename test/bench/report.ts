import type { ColdRow } from './cold-rounds.ts';
import { kib, median, ms, percentile, times } from './stats.ts';
import type { WarmPhase } from './warm-phase.ts';

// The bench's output: one table of cold figures against the bare handler, one line per warm
// comparison, and the summary line of ratios the goals are stated in.

/** The function the first-invocation goal is about: two calls (authenticate and count, then the project). */
const KEY_READ = 'get-project';

interface ColdRatios {
  label: string;
  size: number;
  gzip: number;
  require: number;
  first: number;
}

const requireOf = (row: ColdRow) => median(row.samples.map((sample) => sample.requireMs));
const firstOf = (row: ColdRow) => median(row.samples.map((sample) => sample.firstInvocationMs));

function ratiosOf(row: ColdRow, bare: ColdRow): ColdRatios {
  return {
    label: row.label,
    size: row.bytes / bare.bytes,
    gzip: row.gzipBytes / bare.gzipBytes,
    require: requireOf(row) / requireOf(bare),
    first: firstOf(row) / firstOf(bare),
  };
}

const LABEL_WIDTH = 48;

function coldLine(row: ColdRow, bare: ColdRow): string {
  const ratios = ratiosOf(row, bare);
  const statuses = [...new Set(row.samples.map((sample) => sample.status))];
  const unexpected = statuses.some((status) => !row.expected.includes(status));
  const label = row.label.length < LABEL_WIDTH ? row.label : `${row.label.slice(0, LABEL_WIDTH - 2)}…`;
  return [
    label.padEnd(LABEL_WIDTH),
    kib(row.bytes).padStart(9),
    times(ratios.size).padStart(7),
    kib(row.gzipBytes).padStart(9),
    times(ratios.gzip).padStart(7),
    ms(requireOf(row)).padStart(9),
    times(ratios.require).padStart(7),
    ms(firstOf(row)).padStart(9),
    times(ratios.first).padStart(7),
    `  ${statuses.join('/')}${unexpected ? ' UNEXPECTED' : ''}`,
  ].join('');
}

export function printReport(
  cold: { bare: ColdRow; bareLean: ColdRow; functions: ColdRow[] },
  warm: WarmPhase,
): void {
  const { bare } = cold;
  console.log(
    `${'bundle'.padEnd(LABEL_WIDTH)}${'size'.padStart(16)}${'gzip'.padStart(16)}${'require'.padStart(16)}${'first call'.padStart(16)}  status`,
  );
  for (const row of [bare, cold.bareLean, ...cold.functions]) console.log(coldLine(row, bare));
  console.log(`(medians of ${bare.samples.length} cold starts each; ratios to the first row)\n`);

  for (const result of warm.results) {
    const side = (name: 'gateway' | 'minimal') =>
      `${name} p50 ${ms(median(result.latencyMs[name]))} p95 ${ms(percentile(result.latencyMs[name], 0.95))} ${median(result.requestsPerSecond[name]).toFixed(0)} req/s`;
    console.log(`${result.label.padEnd(24)} ${side('gateway')}; ${side('minimal')}`);
  }
  for (const mismatch of warm.callMismatches)
    console.log(`WARNING: the minimal server's calls differ: ${mismatch}`);

  const ratios = cold.functions.map((row) => ratiosOf(row, bare));
  const worst = (key: 'size' | 'gzip' | 'require'): string => {
    const top = ratios.reduce<ColdRatios | undefined>((a, b) => (a && a[key] >= b[key] ? a : b), undefined);
    return top ? `${times(top[key])} (${top.label.split(' ')[0]})` : 'n/a';
  };
  const keyRead = ratios.find((row) => row.label.split(' ')[0] === KEY_READ);
  const warmOf = (label: string) => {
    const result = warm.results.find((candidate) => candidate.label.startsWith(label));
    if (!result) return { p50: 'n/a', throughput: 'n/a' };
    const { latencyMs: l, requestsPerSecond: r } = result;
    return {
      p50: times(median(l.gateway) / median(l.minimal)),
      throughput: times(median(r.gateway) / median(r.minimal)),
    };
  };
  const [get, post] = [warmOf('GET'), warmOf('POST')];
  console.log(
    `\nSUMMARY max size ${worst('size')} gzip ${worst('gzip')} require ${worst('require')}` +
      ` | first invocation get-project ${keyRead ? times(keyRead.first) : 'n/a'}` +
      ` | warm p50 GET ${get.p50} POST ${post.p50} | throughput GET ${get.throughput} POST ${post.throughput}`,
  );
}
