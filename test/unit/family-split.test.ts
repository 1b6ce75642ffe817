import { createdBy, estimatedResources, splitFamily, subtreeOf } from '#infra/api/family-split.ts';
import { routes } from '#shared/routes.ts';
import { generatedSubResources } from '../support/generated-routes.ts';

// How a route family is cut into stacks (infra/api/family-split.ts); the synthesized templates are
// checked in test/infra/stack-limits.test.ts.

const projectRows = routes.filter((route) => route.api === 'platform' && route.path.startsWith('/projects'));
const partsOf = (parts: ReturnType<typeof splitFamily>) =>
  parts.map((part) => ({ subtree: part.subtree, rows: part.rows.map((row) => `${row.method} ${row.path}`) }));

it('names the sub-tree of a path by its second literal segment, and none on the trunk', () => {
  expect(
    ['/projects', '/projects/{id}', '/projects/{id}/env', '/projects/{id}/env/{envId}', '/auth/login'].map(
      subtreeOf,
    ),
  ).toEqual([undefined, undefined, '/projects/{id}/env', '/projects/{id}/env', '/auth/login']);
});

it("keeps a family within its budget in one part, exactly its rows: today's families", () => {
  expect(partsOf(splitFamily(projectRows))).toEqual([
    { subtree: undefined, rows: projectRows.map((row) => `${row.method} ${row.path}`) },
  ]);
});

it('keeps the first rows that fit and gives each later sub-tree a part of its own, below a parent the first creates', () => {
  const more = generatedSubResources(50);
  const [own, ...others] = splitFamily([...projectRows, ...more]);
  expect(own?.rows.slice(0, projectRows.length)).toEqual(projectRows);
  expect(others.map((part) => part.subtree)).toEqual(
    more.slice(more.length - others.length).map((row) => row.path),
  );
  expect(own?.paths).toContain('/projects/{id}');
  if (!own) throw new Error('no first part');
  expect(estimatedResources(own.rows, createdBy(own))).toBeLessThanOrEqual(300);
});

it('keeps a sub-tree whose handler also serves the trunk in the trunk: one function per handler', () => {
  const [first] = generatedSubResources(1);
  if (!first) throw new Error('no generated row');
  const shared = { ...first, path: '/projects/{id}/shared', handler: 'get-project' };
  const parts = splitFamily([...projectRows, shared], [], 1);
  expect(parts[0]?.rows).toContainEqual(shared);
  expect(parts.flatMap((part) => part.rows).filter((row) => row === shared)).toHaveLength(1);
});
