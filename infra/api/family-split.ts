import type { Route } from '#shared/routes.ts';

// A route family (infra/api/route-family.ts) is one nested stack, and CloudFormation stops a template at
// 500 resources. A family that would pass FAMILY_RESOURCE_BUDGET splits itself, by sub-tree: the rows
// under the same second literal segment of their path (`/projects/{id}/env` and
// `/projects/{id}/env/{envId}` are the sub-tree `/projects/{id}/env`), and the trunk, the rows with
// no second literal segment (`/projects`, `/projects/{id}`). The trunk, and then the sub-trees in the
// order of their first row in the route table, stay in the family's stack as long as it stays within
// the budget; from the first sub-tree that does not fit on, each has a nested stack of its own, keyed
// by its path, on resources the family's stack still creates down to its parent.
//
// So a family under the budget is exactly what it was (nothing moves), and a family that reaches it
// because rows were added after its others puts only those rows in new stacks: the update creates
// them and changes nothing that exists. A row added before others of a family already past the budget
// can push a sub-tree that was deployed in the family's stack into one of its own; that is a move
// (docs/deploying-stack-structure.md says what a deploy of one does).

/**
 * The resources a family's template may hold before it splits: 100 below the 400 that
 * test/infra/stack-limits.test.ts allows, so that a sub-tree that does not fit has room elsewhere.
 */
export const FAMILY_RESOURCE_BUDGET = 300;

/** A part of a family in a stack of its own: the trunk (`subtree` undefined) or one sub-tree. */
export interface FamilyPart {
  /** The sub-tree's path (`/projects/{id}/env`); undefined for the family's own stack. */
  subtree?: string;
  rows: Route[];
  /** Paths whose resources this part creates although none of its rows is on them. */
  paths: string[];
}

const segmentsOf = (path: string): string[] => path.split('/').filter((part) => part !== '');
const isLiteral = (segment: string): boolean => !segment.startsWith('{');

/** The sub-tree of a path: up to its second literal segment; undefined on the trunk. */
export function subtreeOf(path: string): string | undefined {
  const segments = segmentsOf(path);
  const second = segments.findIndex((segment, index) => index > 0 && isLiteral(segment));
  return second < 0 ? undefined : `/${segments.slice(0, second + 1).join('/')}`;
}

/** Every path from the first segment down to `path` itself: `/a/{b}` -> `/a`, `/a/{b}`. */
const pathsDownTo = (path: string): string[] =>
  segmentsOf(path).map((_, index, segments) => `/${segments.slice(0, index + 1).join('/')}`);

/**
 * What a family's stack holds for `rows` (infra/api/route-family.ts): per handler a function, its role and
 * its log group; per row a method and its invoke permission; per path it creates a resource and its
 * `ANY` to the fallback; once the fallback's invoke permission. `created` are the paths it creates.
 */
export function estimatedResources(rows: readonly Route[], created: ReadonlySet<string>): number {
  const handlers = new Set(rows.map((row) => row.handler));
  return handlers.size * 3 + rows.length * 2 + created.size * 2 + 1;
}

/** The paths a part creates: its rows' and `paths`, and their parents, those above `below` excluded. */
function createdPaths(rows: readonly Route[], paths: readonly string[], below?: string): Set<string> {
  const all = [...rows.map((row) => row.path), ...paths].flatMap(pathsDownTo);
  return new Set(below ? all.filter((path) => path === below || path.startsWith(`${below}/`)) : all);
}

interface Unit {
  subtree: string | undefined;
  rows: Route[];
  paths: string[];
}

/**
 * The units of a family: the trunk, then each sub-tree in table order. A handler serves its rows from
 * one function in one stack: a sub-tree that shares a handler with another unit is in the trunk.
 */
function unitsOf(rows: readonly Route[], paths: readonly string[]): Unit[] {
  const subtreesOf = new Map<string, Set<string | undefined>>();
  for (const row of rows) {
    const subtrees = subtreesOf.get(row.handler) ?? new Set();
    subtreesOf.set(row.handler, subtrees.add(subtreeOf(row.path)));
  }
  const inTrunk = new Set(
    [...subtreesOf.values()].filter((subtrees) => subtrees.size > 1).flatMap((subtrees) => [...subtrees]),
  );
  const units = new Map<string | undefined, Unit>([[undefined, { subtree: undefined, rows: [], paths: [] }]]);
  const unitOf = (path: string): Unit => {
    const found = subtreeOf(path);
    const subtree = inTrunk.has(found) ? undefined : found;
    const unit = units.get(subtree) ?? { subtree, rows: [], paths: [] };
    units.set(subtree, unit);
    return unit;
  };
  for (const row of rows) unitOf(row.path).rows.push(row);
  for (const path of paths) unitOf(path).paths.push(path);
  return [...units.values()];
}

/**
 * A family's rows (and the paths it creates for the key issuers' family) in the stacks they live in:
 * one part, the family's own, unless that would pass `budget` resources (see above).
 */
export function splitFamily(
  rows: readonly Route[],
  paths: readonly string[] = [],
  budget: number = FAMILY_RESOURCE_BUDGET,
): FamilyPart[] {
  if (estimatedResources(rows, createdPaths(rows, paths)) <= budget) {
    return [{ rows: [...rows], paths: [...paths] }];
  }
  const [trunk, ...subtrees] = unitsOf(rows, paths);
  const own: FamilyPart = { rows: [...(trunk?.rows ?? [])], paths: [...(trunk?.paths ?? [])] };
  const parts: FamilyPart[] = [own];
  let full = false;
  for (const unit of subtrees) {
    const subtree = unit.subtree ?? '';
    // The family's stack creates the resources down to the sub-tree's parent, for its methods.
    const parent = subtree.slice(0, subtree.lastIndexOf('/'));
    const withUnit = [...own.rows, ...unit.rows];
    const withPaths = [...own.paths, ...unit.paths];
    full ||= estimatedResources(withUnit, createdPaths(withUnit, withPaths)) > budget;
    if (!full) {
      own.rows = withUnit;
      own.paths = withPaths;
    } else {
      parts.push({ subtree, rows: unit.rows, paths: unit.paths });
      if (!own.paths.includes(parent)) own.paths.push(parent);
    }
  }
  return parts;
}

/** The resources a part creates: below its sub-tree's parent, or all of them for the family's own. */
export const createdBy = (part: FamilyPart): Set<string> => createdPaths(part.rows, part.paths, part.subtree);
