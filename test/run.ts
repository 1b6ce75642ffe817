import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import libCoverage from 'istanbul-lib-coverage';

// `npm test`'s Jest part, in two phases (jest.config.js): first the `parallel` project, two files at
// a time; then the `alone` project, one file at a time with nothing else running, for the suites
// that freeze, kill or slow the store or judge a wall-clock time. Each phase collects coverage on its
// own, with no threshold; the threshold of jest.config.js is then checked once, on both merged, as
// one Jest run would have checked it. Arguments go to both phases (`npm test -- --silent`).

const root = join(import.meta.dirname, '..');
const coverageRoot = join(root, 'coverage');
const phases = [
  { project: 'parallel', flags: [] },
  { project: 'alone', flags: ['--runInBand'] },
] as const;

type Metric = 'statements' | 'branches' | 'functions' | 'lines';
const METRICS: readonly Metric[] = ['statements', 'branches', 'functions', 'lines'];

function runPhase(project: string, flags: readonly string[], extra: readonly string[]): number {
  const directory = join(coverageRoot, project);
  console.log(`\n== Jest, ${project} ==\n`);
  const result = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--selectProjects',
      project,
      ...flags,
      '--coverage',
      `--coverageDirectory=${directory}`,
      '--coverageReporters=json',
      '--coverageThreshold={}',
      ...extra,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  return result.status ?? 1;
}

/** The phases' coverage merged, as percentages, checked against the configured threshold. */
async function checkCoverage(): Promise<boolean> {
  const map = libCoverage.createCoverageMap({});
  for (const { project } of phases) {
    const file = join(coverageRoot, project, 'coverage-final.json');
    if (!existsSync(file)) {
      console.error(`\nNo coverage from the ${project} phase (${file})`);
      return false;
    }
    map.merge(JSON.parse(readFileSync(file, 'utf8')));
  }
  const summary = map.getCoverageSummary();
  const { default: config } = (await import(pathToFileURL(join(root, 'jest.config.js')).href)) as {
    default: { coverageThreshold: { global: Partial<Record<Metric, number>> } };
  };
  const threshold = config.coverageThreshold.global;
  writeFileSync(join(coverageRoot, 'coverage-summary.json'), JSON.stringify({ total: summary.toJSON() }));
  let met = true;
  console.log('\n== Coverage of both phases ==');
  for (const metric of METRICS) {
    const { pct, covered, total } = summary[metric];
    const floor = threshold[metric];
    const below = floor !== undefined && pct < floor;
    met &&= !below;
    console.log(
      `${metric.padEnd(11)}: ${pct.toFixed(2)}% (${covered}/${total})${below ? `  below the threshold of ${floor}%` : ''}`,
    );
  }
  return met;
}

rmSync(coverageRoot, { recursive: true, force: true });
mkdirSync(coverageRoot, { recursive: true });
const extra = process.argv.slice(2);
const failed = phases.filter(({ project, flags }) => runPhase(project, flags, extra) !== 0);
const covered = await checkCoverage();
if (failed.length > 0) console.error(`\nFailed: ${failed.map(({ project }) => project).join(', ')}`);
process.exit(failed.length === 0 && covered ? 0 : 1);
