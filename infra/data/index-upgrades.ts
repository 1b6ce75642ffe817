import type { IndexDefinition, TableKey } from '#shared/db/tables.ts';

// How a stack deployed before the current indexes (shared/db/tables.ts) gets to them, one index change
// per deploy step (CloudFormation changes one global secondary index per table update): the declared
// indexes that are new, added first in this order, then the retired ones, removed in this order.
// infra/data/index-steps.ts turns this into each step's indexes (docs/upgrading-indexes.md). Deploy
// history, not what the functions query: here rather than in the table declarations, which every
// function's bundle holds.

/** An index a deployed stack may still have: removed one per deploy step. */
export interface RetiredIndex extends IndexDefinition {
  name: string;
}

export interface IndexUpgrade {
  added: readonly string[];
  retired: readonly RetiredIndex[];
}

export const indexUpgrades: Partial<Record<TableKey, IndexUpgrade>> = {
  apiKeys: {
    added: ['ownerKeys'],
    retired: [{ name: 'byOwner', partitionKey: 'userId', sortKey: 'keyId' }],
  },
  deployments: {
    added: [],
    retired: [
      { name: 'byProjectStatus', partitionKey: 'projectStatus', sortKey: 'id' },
      { name: 'byProjectBranch', partitionKey: 'projectBranch', sortKey: 'id' },
      { name: 'byProjectBranchStatus', partitionKey: 'projectBranchStatus', sortKey: 'id' },
      { name: 'byOwnerStatus', partitionKey: 'ownerStatus', sortKey: 'id' },
      { name: 'byOwnerBranch', partitionKey: 'ownerBranch', sortKey: 'id' },
      { name: 'byOwnerBranchStatus', partitionKey: 'ownerBranchStatus', sortKey: 'id' },
      { name: 'unfinished', partitionKey: 'activeStatus', sortKey: 'id' },
    ],
  },
};
