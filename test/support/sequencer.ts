import jestSequencer from '@jest/test-sequencer';
import { READS_BUNDLES, READS_TEMPLATE } from './bundle-readers.ts';

// The order of the `parallel` project's files: Jest's own (those that failed last time, then the
// slowest first), except that the suites that read the run's synthesis go after the others (its
// bundles' readers, then its template's: see test/support/bundle-readers.ts), and the unit tests
// after them. The synthesis now ends a minute into a run, long before its readers start; the longest
// of them (bundles.test.ts, 40 s of one child process after another) used to end the phase alone
// while the other worker had nothing left, and the unit tests, many and short, now fill that time.

// The package is CommonJS with an `exports.default`: loaded by Node that is the default import's
// `default`; loaded through Jest's own module interop it is the default import itself.
type Sequencer = typeof jestSequencer.default;
const loaded = jestSequencer as unknown as Sequencer | { default: Sequencer };
const TestSequencer: Sequencer = typeof loaded === 'function' ? loaded : loaded.default;
const UNIT = /\/test\/unit\//;
type Tests = Parameters<InstanceType<typeof TestSequencer>['sort']>[0];

export default class BundlesLastSequencer extends TestSequencer {
  override sort(tests: Tests): ReturnType<InstanceType<typeof TestSequencer>['sort']> {
    const sorted = super.sort(tests);
    const rank = (path: string): number =>
      READS_BUNDLES.test(path) ? 1 : READS_TEMPLATE.test(path) ? 2 : UNIT.test(path) ? 3 : 0;
    // A stable sort: Jest's order within each rank.
    const ordered = (list: Tests) => [...list].sort((a, b) => rank(a.path) - rank(b.path));
    return sorted instanceof Promise ? sorted.then(ordered) : ordered(sorted);
  }
}
