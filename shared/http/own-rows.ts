import { isFallback, type Route, rowsOf, takesBody, takesIdempotencyKey } from '#shared/routes.ts';

// The route rows a function serves. In a Lambda bundle they are compiled in: the stack defines
// BUNDLED_ROUTE_ROWS as the JSON of exactly that function's rows (infra/api/endpoint-function.ts),
// esbuild folds the `typeof` below, and the route table, 10 KB that every cold start would load, stays
// out of the bundle. That holds while the table's rows have no object spreads: esbuild keeps a
// statement that may have side effects, and a spread may (test/infra/bundles.test.ts fails if the
// table comes back). Everywhere else (`npm start`, the tests) the rows come from the table.

declare const BUNDLED_ROUTE_ROWS: string | undefined;

/**
 * What the stack defines for a function serving `rows` (infra/api/endpoint-function.ts): the rows, and
 * beside them, as literal booleans, the parts of the chain they run that not every function does.
 * shared/http/endpoint.ts tests those where it builds the chain, so that esbuild folds the test and
 * leaves out the code of a part not run: the idempotency of a platform POST (4 KB), the body parser
 * (1.4 KB), the read of a membership alone by BatchGetItem (for the rows that read it beside their
 * resource, `membership: 'withResource'`; the others read it with GetItem).
 */
export const bundledRowsDefines = (rows: readonly Route[]): Record<string, string> => ({
  BUNDLED_ROUTE_ROWS: JSON.stringify(JSON.stringify(rows)),
  BUNDLED_TAKES_IDEMPOTENCY_KEY: String(takesIdempotencyKey(rows[0] as Route)),
  BUNDLED_TAKES_BODY: String(takesBody(rows[0] as Route)),
  BUNDLED_MEMBERSHIP_WITH_RESOURCE: String(readsMembershipWithResource(rows[0] as Route)),
});

/** Whether a row reads the caller's membership beside its resource (BatchGetItem), not alone. */
export const readsMembershipWithResource = (route: Route): boolean =>
  !isFallback(route) && route.membership === 'withResource';

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
