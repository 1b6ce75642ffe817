// A project's production pointer: which of its deployments is live, and why it became so.
// - `auto`: a production-target deployment became ready, newer than the one in production, while
//   automatic promotion was on;
// - `promote`: someone promoted a ready deployment (preview ones too); it turns automatic promotion
//   back on;
// - `rollback`: someone put an earlier production deployment back; it turns automatic promotion off,
//   so that a build already in flight does not undo the rollback.

export const PRODUCTION_REASONS = ['auto', 'promote', 'rollback'] as const;

export type ProductionReason = (typeof PRODUCTION_REASONS)[number];

/**
 * Moves that go forward: they set where a later default rollback goes (the production they replaced),
 * and leave automatic promotion on; a rollback pauses it.
 */
export const movesForward = (reason: ProductionReason): boolean => reason !== 'rollback';
