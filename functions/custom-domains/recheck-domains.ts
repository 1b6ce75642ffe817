import { recheckDueDomains } from '#shared/domain/custom-domains/domains.ts';
import { logInfo } from '#shared/runtime/log.ts';

// Invoked every minute (an EventBridge rule in AWS, infra/consumers/domain-checks.ts; a timer locally,
// infra/local/schedules.ts): the pending custom domains that are due are checked again, or expire.
// A round that throws (the store failed) is an invocation error, which the function's alarm counts;
// what it left is still due, and the next round takes it.

/** Of the function's 60 s: the rest is for the checks already started (2 s each) to finish. */
const ROUND_BUDGET_MS = 40_000;

/** Answers nothing (a schedule reads no answer): what it did goes to its log. */
export async function handler(): Promise<void> {
  const summary = await recheckDueDomains(ROUND_BUDGET_MS);
  if (summary.checked + summary.verified + summary.expired > 0) logInfo('domain checks', { ...summary });
}
