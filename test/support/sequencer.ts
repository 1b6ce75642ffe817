import jestSequencer from '@jest/test-sequencer';
import { READS_BUNDLES } from './bundle-readers.ts';

// The order of the `parallel` project's files: Jest's own (those that failed last time, then the
// slowest first), except that the suites that read the run's bundled synthesis go last. The
// synthesis runs beside the others from the start; a suite that waited for it first held a worker
// idle for minutes.

// The package is CommonJS with an `exports.default`: loaded by Node that is the default import's
// `default`; loaded through Jest's own module interop it is the default import itself.
type Sequencer = typeof jestSequencer.default;
const loaded = jestSequencer as unknown as Sequencer | { default: Sequencer };
const TestSequencer: Sequencer = typeof loaded === 'function' ? loaded : loaded.default;
type Tests = Parameters<InstanceType<typeof TestSequencer>['sort']>[0];

export default class BundlesLastSequencer extends TestSequencer {
  override sort(tests: Tests): ReturnType<InstanceType<typeof TestSequencer>['sort']> {
    const sorted = super.sort(tests);
    const ordered = (list: Tests) => [
      ...list.filter((test) => !READS_BUNDLES.test(test.path)),
      ...list.filter((test) => READS_BUNDLES.test(test.path)),
    ];
    return sorted instanceof Promise ? sorted.then(ordered) : ordered(sorted);
  }
}
