import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { TableDefinition, TableKey } from '#shared/db/tables.ts';
import { pascalCase, pinLogicalId } from '../construct-ids.ts';
import { indexesAtStep } from './index-steps.ts';
import { indexUpgrades } from './index-upgrades.ts';
import { pinnedLogicalIds } from './pinned-logical-ids.ts';
import { hasRecovery, withoutRecoveryBecause } from './tables-without-recovery.ts';

/**
 * A table of shared/db/tables.ts in `scope`, as its definition says, with the indexes of the deploy
 * step `indexStep` (infra/data/index-steps.ts; every index when undefined).
 */
export function dataTable(
  scope: Construct,
  key: TableKey,
  definition: TableDefinition,
  indexStep: number | undefined,
): Table {
  const table = new Table(scope, `${pascalCase(key)}Table`, {
    billingMode: BillingMode.PAY_PER_REQUEST,
    partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
    sortKey: definition.sortKey ? { name: definition.sortKey, type: AttributeType.STRING } : undefined,
    timeToLiveAttribute: definition.ttlAttribute,
    // No table goes with a mistake: a `cdk destroy`, a deleted stack, a console click, or a change
    // that gives it another logical id (CloudFormation would make a new, empty table and delete the
    // old one; the ids are pinned as well, below). A table left behind by a deleted stack costs
    // nothing but its storage, and TTL empties the disposable ones. Users' data also survives a bad
    // write (point-in-time recovery); the tables that do without say why (infra/data/tables-without-recovery.ts).
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: hasRecovery(key) },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    stream: definition.stream ? StreamViewType[definition.stream] : undefined,
  });
  pinLogicalId(table, pinnedLogicalIds.tables[key]);
  const reason = withoutRecoveryBecause[key];
  if (reason !== undefined) Validations.of(table).acknowledge({ id: 'AwsSolutions-DDB3', reason });
  // One index change per table and deploy on a stack deployed before: infra/data/index-steps.ts.
  for (const index of indexesAtStep(definition, indexUpgrades[key], indexStep)) {
    const projection = index.projection ?? 'ALL';
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
      ...(typeof projection === 'string'
        ? { projectionType: ProjectionType[projection] }
        : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...projection] }),
    });
  }
  return table;
}
