import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Each function's bundle carries only its own route rows, compiled in (shared/http/own-rows.ts).
// esbuild can leave the route table out of a bundle only when no row may have side effects, and an
// object spread may: one `...keyed` in a row puts the whole table (10 KB) back into every bundle. The
// bundles test sees that after a full synth; this sees it in milliseconds, and names the row.

const SOURCE = join(import.meta.dirname, '../../shared/routes.ts');

/** The spreads inside the initializer of `const routeTable = [...]`, as `line: text`. */
function spreadsInRouteTable(sourceText: string): string[] {
  const file = ts.createSourceFile('routes.ts', sourceText, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  let sawTable = false;
  const visit = (node: ts.Node, inTable: boolean): void => {
    if (inTable && (ts.isSpreadAssignment(node) || ts.isSpreadElement(node))) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${line + 1}: ${node.getText()}`);
    }
    const isTable =
      ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'routeTable';
    if (isTable) sawTable = true;
    ts.forEachChild(node, (child) => visit(child, inTable || isTable));
  };
  visit(file, false);
  if (!sawTable) throw new Error('shared/routes.ts has no `const routeTable`: update this test');
  return found;
}

describe('the route table', () => {
  it('writes every row out in full, with no object or array spreads', () => {
    expect(spreadsInRouteTable(readFileSync(SOURCE, 'utf8'))).toEqual([]);
  });

  it('finds a spread when a row has one', () => {
    const withSpread =
      "const keyed = { a: 1 };\nconst routeTable = [\n  { tables: { ...keyed, projects: 'read' } },\n];";
    expect(spreadsInRouteTable(withSpread)).toEqual(['3: ...keyed']);
  });
});
