/**
 * The suites that read the run's bundled synthesis (test/support/synthesized-stack.ts): the parallel
 * phase runs them last (test/support/sequencer.ts), and `npm run test:quick` leaves them out.
 */
export const READS_BUNDLES = /test\/infra\/(bundles|bundle-budget|cold-start|reproducible-assets)\.test\.ts$/;
