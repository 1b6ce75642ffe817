import type { IndexDefinition, TableDefinition } from '#shared/db/tables.ts';
import { type IndexUpgrade, indexUpgrades } from './index-upgrades.ts';

// A deployed stack reaches the declared indexes one change at a time: CloudFormation creates or
// deletes at most one global secondary index per table in one stack update. Step 0 is the stack as
// it was before (the retired indexes, none of the added ones); each step adds the next new index,
// then removes the next retired one; the last step is the declaration. `cdk deploy -c indexStep=N`
// deploys step N (docs/upgrading-indexes.md); without it, the declaration (a new stack, or one
// that has taken every step).

export type NamedIndex = IndexDefinition & { name: string };

/** How many steps a table's upgrade takes. */
const stepsOf = (upgrade: IndexUpgrade): number => upgrade.added.length + upgrade.retired.length;

/** The steps the slowest table takes (infra/data/index-upgrades.ts): after that many, every table has its declared indexes. */
export const upgradeSteps = (): number => Math.max(0, ...Object.values(indexUpgrades).map(stepsOf));

/**
 * The indexes a table has at upgrade step `step` (the declaration when undefined or past its last),
 * given its upgrade (infra/data/index-upgrades.ts), if it has one.
 */
export function indexesAtStep(
  table: TableDefinition,
  upgrade: IndexUpgrade | undefined,
  step?: number,
): NamedIndex[] {
  const declared = Object.entries(table.indexes ?? {}).map(([name, index]) => ({ ...index, name }));
  if (step === undefined || !upgrade) return declared;
  const { added, retired } = upgrade;
  const notYetAdded = new Set(added.slice(Math.max(0, step)));
  const stillThere = retired.slice(Math.max(0, step - added.length));
  return [...declared.filter((index) => !notYetAdded.has(index.name)), ...stillThere];
}

/** The step asked for with `-c indexStep=N`, checked; undefined when none was. */
export function indexStepOf(context: unknown): number | undefined {
  if (context === undefined) return undefined;
  const step = Number(context);
  if (!Number.isInteger(step) || step < 0)
    throw new Error(`indexStep must be a whole number, not ${String(context)}`);
  return step;
}
