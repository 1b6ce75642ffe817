import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { dataTable } from '#infra/data/data-table.ts';
import { upgradeSteps } from '#infra/data/index-steps.ts';
import { pinnedLogicalIds } from '#infra/data/pinned-logical-ids.ts';
import { PlatformStack } from '#infra/platform-stack.ts';
import { type TableKey, tableKeys, tables } from '#shared/db/tables.ts';

// A deployed stack reaches the declared indexes by `cdk deploy -c indexStep=1`, `=2`, ... (docs/
// upgrading-indexes.md): CloudFormation creates or deletes one global secondary index per table in
// one update, and refuses to change one in place. Each step's template, built as the stack builds
// it, may differ from the one before in at most one index per table; step 0 is the template
// deployed before this change, and the last step is the declaration.

interface Gsi {
  IndexName: string;
  KeySchema: { AttributeName: string; KeyType: string }[];
  Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
}

/** Each table's indexes in a template, by logical id. */
function indexesIn(template: Template): Record<TableKey, Map<string, string>> {
  const resources = template.findResources('AWS::DynamoDB::Table');
  return Object.fromEntries(
    tableKeys.map((key) => {
      const table = resources[pinnedLogicalIds.tables[key]] as {
        Properties: { GlobalSecondaryIndexes?: Gsi[] };
      };
      const gsis = table.Properties.GlobalSecondaryIndexes ?? [];
      return [key, new Map(gsis.map((gsi) => [gsi.IndexName, JSON.stringify(gsi)]))];
    }),
  ) as Record<TableKey, Map<string, string>>;
}

/**
 * Each table's indexes at one step (no step: the declaration), built by the stack's own table
 * construct (infra/data/data-table.ts) in a stack of tables alone: a whole stack per step took a CI run
 * 90 to 110 s. That the stack hands `-c indexStep` to it is checked once, below.
 */
function indexesOf(step: number | undefined): Record<TableKey, Map<string, string>> {
  const stack = new Stack(new App(), 'Tables');
  for (const key of tableKeys) dataTable(stack, key, tables[key], step);
  return indexesIn(Template.fromStack(stack));
}

const keySchema = (partitionKey: string, sortKey: string) => [
  { AttributeName: partitionKey, KeyType: 'HASH' },
  { AttributeName: sortKey, KeyType: 'RANGE' },
];
const all = (IndexName: string, partitionKey: string) =>
  JSON.stringify({
    IndexName,
    KeySchema: keySchema(partitionKey, 'id'),
    Projection: { ProjectionType: 'ALL' },
  });

/** The indexes of the template deployed before the change (commit 06d72f2), as CloudFormation held them. */
const BEFORE: Partial<Record<TableKey, string[]>> = {
  apiKeys: [
    JSON.stringify({
      IndexName: 'byOwner',
      KeySchema: keySchema('userId', 'keyId'),
      Projection: { ProjectionType: 'ALL' },
    }),
  ],
  users: [
    JSON.stringify({
      IndexName: 'byCreation',
      KeySchema: keySchema('listing', 'id'),
      Projection: { ProjectionType: 'ALL' },
    }),
  ],
  // A table new since then is made with its indexes: nothing to step through.
  teams: [
    JSON.stringify({
      IndexName: 'byMember',
      KeySchema: keySchema('memberId', 'teamId'),
      Projection: { NonKeyAttributes: ['role', 'joinedAt'], ProjectionType: 'INCLUDE' },
    }),
  ],
  deployments: [
    all('byProject', 'projectId'),
    all('byProjectStatus', 'projectStatus'),
    all('byProjectBranch', 'projectBranch'),
    all('byProjectBranchStatus', 'projectBranchStatus'),
    all('byOwnerStatus', 'ownerStatus'),
    all('byOwnerBranch', 'ownerBranch'),
    all('byOwnerBranchStatus', 'ownerBranchStatus'),
    all('unfinished', 'activeStatus'),
  ],
  // Added since, with its indexes: CloudFormation creates a new table with all of them at once.
  domains: [
    JSON.stringify({
      IndexName: 'byProject',
      KeySchema: keySchema('projectId', 'listOrder'),
      Projection: { ProjectionType: 'ALL' },
    }),
    JSON.stringify({
      IndexName: 'dueChecks',
      KeySchema: keySchema('checkQueue', 'nextCheckAt'),
      Projection: { ProjectionType: 'ALL' },
    }),
  ],
};

/** How many indexes differ between two templates of one table: added, removed or changed. */
function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}

const steps = upgradeSteps();
const templates = Array.from({ length: steps + 1 }, (_, step) => indexesOf(step));
const declared = indexesOf(undefined);

describe('index upgrade steps of a deployed stack', () => {
  it.each(tableKeys)('step 0 is the %s table as it was deployed before', (key) => {
    expect([...(templates[0]?.[key].values() ?? [])].sort()).toEqual([...(BEFORE[key] ?? [])].sort());
  });

  it.each(tableKeys)('the last step is the %s table as declared', (key) => {
    expect(templates[steps]?.[key]).toEqual(declared[key]);
  });

  it.each(tableKeys.flatMap((key) => Array.from({ length: steps }, (_, step) => [key, step + 1] as const)))(
    '%s changes at most one index in step %i',
    (key, step) => {
      const before = templates[step - 1]?.[key] ?? new Map();
      const after = templates[step]?.[key] ?? new Map();
      expect(changes(before, after).length).toBeLessThanOrEqual(1);
    },
  );

  it('is what the stack deploys with -c indexStep', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], indexStep: '1' } });
    expect(indexesIn(Template.fromStack(new PlatformStack(app, 'PlatformStack')))).toEqual(templates[1]);
  });

  it('deploying the declaration on a stack of before would change more than one index: the steps are needed', () => {
    expect(changes(templates[0]?.deployments ?? new Map(), declared.deployments).length).toBeGreaterThan(1);
  });
});
