import type { TableKey } from '#shared/db/tables.ts';

// Point-in-time recovery (a restore to any second of the last 35 days) is on for every table of
// shared/db/tables.ts, for users' data that a bad write could spoil and nothing could recompute,
// except those named here, each with why it does without: the reason cdk-nag's DDB3 finding is
// acknowledged with. Here rather than beside the tables' declaration, which every function bundles:
// a new table has recovery unless it is given a reason here. Every table, these too, has deletion
// protection and outlives the stack.

export const withoutRecoveryBecause: Partial<Record<TableKey, string>> = {
  idempotency:
    'cached answers to idempotent POSTs, which expire within a day: losing them loses no user data',
  rateLimits:
    'rate counters of the current window, which expire within a day: losing them loses no user data',
  webhookDeliveries:
    'the delivery log, written once per attempt and expired after 30 days: nothing rewrites it, so there is no bad write to undo',
  deploymentLogs:
    'build logs, written once and expired after 30 days: nothing rewrites a line, and the table is the largest by bytes, which recovery bills by',
};

/** Whether the table has point-in-time recovery: every one but those above. */
export const hasRecovery = (key: TableKey): boolean => withoutRecoveryBecause[key] === undefined;
