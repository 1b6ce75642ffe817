// Which suites read the run's synthesis (test/support/synthesized-stack.ts). The parallel phase runs
// them after the other suites but the unit tests (test/support/sequencer.ts): the synthesis runs
// beside the other suites from the start, and a suite that waited for it first held a worker idle.

const suites = (names: readonly string[]): RegExp =>
  new RegExp(`test/infra/(${names.join('|')})\\.test\\.ts$`);

/** The suites that read its bundles: `npm run test:quick` leaves them out. */
export const READS_BUNDLES = suites(['bundles', 'bundle-budget', 'cold-start', 'reproducible-assets']);

/**
 * The suites that read its default stack's template (defaultStackTemplate): run on their own, or in
 * a run without the synthesis, they synthesize the stack themselves, so test:quick keeps them.
 */
export const READS_TEMPLATE = suites(['environment-key', 'webhooks', 'domain-checks', 'operations']);
