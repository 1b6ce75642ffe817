import type { TableKey } from '../shared/db/tables.ts';

// Why each table without point-in-time recovery (shared/db/tables.ts) does without: the reason
// cdk-nag's DDB3 finding is acknowledged with. Here rather than beside the tables' declaration, which
// every function bundles. Every table, these too, has deletion protection and outlives the stack.

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
