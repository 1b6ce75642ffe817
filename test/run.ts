import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import libCoverage from 'istanbul-lib-coverage';

// `npm test`: Biome, the type checks and the OpenAPI lint, and Jest in two phases (jest.config.js):
// first the `parallel` project, two files at a time; then the `alone` project, one file at a time
// with nothing else running, for the suites that freeze, kill or slow the store or judge a wall-clock
// time. Each phase collects coverage on its own, with no threshold; the threshold of jest.config.js is
// then checked once, on both merged, as one Jest run would have checked it. Arguments go to both
// phases (`npm test -- --silent`).
//
// The checks run beside the parallel phase, not before it: tsc takes 21 s on one core (Biome 5 s),
// and the parallel phase keeps both cores busy from its first second, so beside it that core is not
// idle.
// A failing check stops Jest at once and fails the run, with the check's output; Jest runs the code
// with its types stripped (test/support/strip-types.ts), so no test depends on the check's answer.

const root = join(import.meta.dirname, '..');
const coverageRoot = join(root, 'coverage');
const phases = [
  { project: 'parallel', flags: [] },
  { project: 'alone', flags: ['--runInBand'] },
] as const;

type Metric = 'statements' | 'branches' | 'functions' | 'lines';
const METRICS: readonly Metric[] = ['statements', 'branches', 'functions', 'lines'];

/** The checks, one after the other: Biome, the type checks of the project and of the SDK, the OpenAPI lint. */
const CHECKS: readonly (readonly string[])[] = [
  [join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'check', root],
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit'],
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'clients', 'typescript')],
  [join(root, 'infra', 'scripts', 'lint-openapi.ts')],
];

/** Runs `args` with this Node; resolves to its exit status and its output, stdout and stderr as they came. */
function runNode(args: readonly string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ status: code ?? 1, output }));
  });
}

/** The checks' outcome: undefined when each passed, else the failing one's command and output. */
async function runChecks(): Promise<string | undefined> {
  for (const args of CHECKS) {
    const { status, output } = await runNode(args);
    if (status !== 0) return `${args.map((arg) => relative(root, arg) || '.').join(' ')} failed:\n${output}`;
  }
  return undefined;
}

let running: ChildProcess | undefined;

/** Stops the Jest phase running, and removes its temporary folder, which its teardown would have. */
async function stopJest(): Promise<void> {
  const child = running;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
  // test/support/global-setup.ts names it after the Jest process.
  for (const name of readdirSync(tmpdir()))
    if (name.startsWith(`platform-test-run-${child.pid}-`))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
}

function runPhase(project: string, flags: readonly string[], extra: readonly string[]): Promise<number> {
  const directory = join(coverageRoot, project);
  console.log(`\n== Jest, ${project} ==\n`);
  const child = spawn(
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
  running = child;
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
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
let checkFailure: string | undefined;
const checks = runChecks().then(async (failure) => {
  checkFailure = failure;
  if (failure) await stopJest();
});
const failed: string[] = [];
for (const { project, flags } of phases) {
  if (checkFailure) break;
  if ((await runPhase(project, flags, extra)) !== 0) failed.push(project);
  // The alone phase runs with nothing beside it.
  if (project === 'parallel') await checks;
}
await checks;
if (checkFailure) {
  console.error(`\n${checkFailure}`);
  process.exit(1);
}
const covered = await checkCoverage();
if (failed.length > 0) console.error(`\nFailed: ${failed.join(', ')}`);
process.exit(failed.length === 0 && covered ? 0 : 1);
