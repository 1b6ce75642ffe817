import { type Route, rowsOf } from '#shared/routes.ts';

// The route rows a function serves. In a Lambda bundle they are compiled in: the stack defines
// BUNDLED_ROUTE_ROWS as the JSON of exactly that function's rows (infra/endpoint-function.ts),
// esbuild folds the `typeof` below, and the route table, 10 KB that every cold start would load, stays
// out of the bundle. That holds while the table's rows have no object spreads: esbuild keeps a
// statement that may have side effects, and a spread may (test/infra/bundles.test.ts fails if the
// table comes back). Everywhere else (`npm start`, the tests) the rows come from the table.

declare const BUNDLED_ROUTE_ROWS: string | undefined;

/** The name the stack defines, for infra/endpoint-function.ts. */
export const BUNDLED_ROWS_DEFINE = 'BUNDLED_ROUTE_ROWS';

/** The compiled-in rows, parsed once at load; undefined outside a Lambda bundle. */
const bundledRows: Route[] | undefined =
  typeof BUNDLED_ROUTE_ROWS === 'string' ? JSON.parse(BUNDLED_ROUTE_ROWS) : undefined;

/** The rows served by `handler`, its function's; throws (at cold start) when there are none. */
export function ownRows(handler: string): Route[] {
  // The same `typeof` again, not `bundledRows ??`: only a test esbuild can fold leaves the table out.
  const rows = typeof BUNDLED_ROUTE_ROWS === 'string' ? (bundledRows as Route[]) : rowsOf(handler);
  if (rows.length === 0 || rows.some((row) => row.handler !== handler)) {
    throw new Error(`No route in shared/routes.ts runs the handler ${handler} in this function`);
  }
  return rows;
}
