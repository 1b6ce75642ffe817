import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { READS_BUNDLES } from './support/bundle-readers.ts';

// `npm run test:quick [-- <git ref>]`: the loop while changing code. Every unit test, and the other
// test files that import a changed file (Jest's --findRelatedTests follows the static imports from
// each test file), of the `parallel` project only. Changed: what differs from HEAD, staged or not,
// and new files; or from the ref given (`npm run test:quick -- main`). Left out: the suites that read
// the bundled synthesis (it takes minutes to make) and the `alone` project; `npm test` runs them all.
// No coverage, no type check (tsc runs in `npm test`, and in the editor).

const root = join(import.meta.dirname, '..');
const jest = [
  '--experimental-vm-modules',
  '--disable-warning=ExperimentalWarning',
  join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
  '--selectProjects',
  'parallel',
];

const git = (...args: string[]): string[] =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const [ref = 'HEAD'] = process.argv.slice(2);
const changed = [
  ...new Set([...git('diff', '--name-only', ref), ...git('ls-files', '--others', '--exclude-standard')]),
]
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join(root, file));

const listed = (args: string[]): string[] =>
  spawnSync(process.execPath, [...jest, '--listTests', ...args], { cwd: root, encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.endsWith('.test.ts'));

const unit = listed([join(root, 'test', 'unit')]);
const related = changed.length > 0 ? listed(['--findRelatedTests', ...changed]) : [];
const files = [...new Set([...unit, ...related])].filter((file) => !READS_BUNDLES.test(file));
console.log(
  `test:quick: ${changed.length} changed file(s) since ${ref}; ${unit.length} unit and ${files.length - unit.length} related test file(s)`,
);
const result = spawnSync(process.execPath, [...jest, '--runTestsByPath', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLATFORM_TEST_SYNTH: 'off' },
});
process.exit(result.status ?? 1);
