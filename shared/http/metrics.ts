import type { StoreTimings } from '#shared/db/store-timing.ts';
import type { Route } from '#shared/routes.ts';
import { config } from '#shared/runtime/config.ts';

// Per-route metrics in CloudWatch's Embedded Metric Format, carried by the access log line the
// chain already writes (request-lifecycle.ts): CloudWatch Logs extracts them from the function's
// log group, no API call and no agent. Written by hand: it is one object, and the measured
// alternative (@aws-lambda-powertools/metrics) adds about 14 KB to every bundle for the same line.
//
// Dimensions are the API group and the route's row (`GET /projects/{id}`), never the path a client
// sent: a handful of values per function, so the number of metrics stays bounded by the route table.
// Each series is a custom metric CloudWatch bills by the month, so the route is a dimension only when
// METRICS_BY_ROUTE is on (the stack's `routeMetrics` setting, docs/costs.md); off, a series per API.

export const METRICS_NAMESPACE = 'PlatformApi';

/** CloudWatch's dimension set of every metric below, with the route and without. */
export const DIMENSIONS = ['Service', 'Api', 'Route'] as const;
export const API_DIMENSIONS = ['Service', 'Api'] as const;

/** What one request tells the metrics. */
export interface RequestOutcome {
  route: Route;
  status: number;
  durationMs: number;
  /** Time in admission (key + count, or the /auth/* throttle); absent where a route has none. */
  admissionMs?: number | undefined;
  store?: StoreTimings | undefined;
}

type Unit = 'Count' | 'Milliseconds';

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** The route as a dimension value: its row's method and path, as API Gateway's resource names it. */
export const routeName = (route: Route): string => `${route.method} ${route.path}`;

/**
 * The EMF members of a request's line: `_aws` with the metric declarations, the dimensions and the
 * values as top-level members (0 or 1 for the outcome counts, so that their average is a rate).
 */
export function metricFields(
  outcome: RequestOutcome,
  timestamp: number,
  byRoute: boolean = config.METRICS_BY_ROUTE === 'on',
): Record<string, unknown> {
  const { route, status, store } = outcome;
  const values: [string, Unit, number][] = [
    ['Requests', 'Count', 1],
    ['ClientErrors', 'Count', status >= 400 && status < 500 ? 1 : 0],
    ['ServerErrors', 'Count', status >= 500 ? 1 : 0],
    ['RateLimited', 'Count', status === 429 ? 1 : 0],
    ['Latency', 'Milliseconds', round(outcome.durationMs)],
  ];
  if (route.handler === 'login') values.push(['LoginFailures', 'Count', status === 401 ? 1 : 0]);
  if (outcome.admissionMs !== undefined)
    values.push(['AdmissionLatency', 'Milliseconds', round(outcome.admissionMs)]);
  if (store && store.calls > 0) {
    values.push(
      ['DynamoDBCalls', 'Count', store.calls],
      ['DynamoDBLatency', 'Milliseconds', round(store.totalMs)],
      ['DynamoDBMaxLatency', 'Milliseconds', round(store.maxMs)],
    );
  }
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [byRoute ? [...DIMENSIONS] : [...API_DIMENSIONS]],
          Metrics: values.map(([Name, Unit]) => ({ Name, Unit })),
        },
      ],
    },
    Service: config.SERVICE_NAME,
    Api: route.api,
    ...(byRoute ? { Route: routeName(route) } : {}),
    ...Object.fromEntries(values.map(([name, , value]) => [name, value])),
  };
}

/** The row a request was served by: its resource and method among the function's rows, else its first. */
export function rowServing(rows: readonly Route[], method: string, resource: string): Route | undefined {
  return (
    rows.find((row) => row.path === resource && (row.method === method || row.method === 'ANY')) ?? rows[0]
  );
}
