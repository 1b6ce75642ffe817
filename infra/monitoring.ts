import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, routeName } from '../shared/http/metrics.ts';
import type { Route } from '../shared/routes.ts';

// What the people on call are told, and where they look. Every alarm goes to one SNS topic; its
// thresholds are stack settings with defaults that page for a real outage and not for one slow
// request. The alarms read AWS's own metrics (API Gateway, Lambda, DynamoDB), so they work even
// when a function cannot write a log line.

export interface AlarmThresholds {
  /** Share of a stage's requests answered 5xx over 5 minutes, in percent. */
  serverErrorPercent: number;
  /** p99 latency of a stage over 5 minutes, in milliseconds (the request deadline is 3 s). */
  p99LatencyMs: number;
  /** A function's errors plus throttles over 5 minutes. */
  functionFaults: number;
  /** A table's throttled requests, or its system errors, over 5 minutes. */
  tableFaults: number;
}

export const DEFAULT_ALARM_THRESHOLDS: AlarmThresholds = {
  serverErrorPercent: 1,
  p99LatencyMs: 2500,
  functionFaults: 5,
  tableFaults: 1,
};

export interface MonitoringProps {
  thresholds: AlarmThresholds;
  /** Subscribed to the alarm topic when given. */
  alarmEmail?: string;
  apis: Record<string, RestApi>;
  /**
   * How every route function's name ends (`-<stack>`): two alarms watch them all, each failing
   * function a contributor named in the alarm, so adding a route adds no alarm.
   */
  routeFunctionSuffix: string;
  /** Functions with an alarm of their own (the consumers): a fixed few, whatever the routes. */
  functions: ReadonlyMap<string, IFunction>;
  tables: Record<string, Table>;
  dashboardName: string;
  /** The `Service` dimension the functions give their metrics (the stack's name). */
  serviceName: string;
  /** The rows the stack serves: the dashboard graphs each one. */
  routes: readonly Route[];
}

const PERIOD = Duration.minutes(5);

/** The item operations the functions make: DynamoDB reports throttles and errors per operation. */
const OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.QUERY,
  Operation.TRANSACT_WRITE_ITEMS,
];

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  /** Where every alarm of the stack goes; other constructs' alarms are added to it too. */
  readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Platform API alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.action = new SnsAction(this.topic);
    const { thresholds } = props;

    for (const [name, api] of Object.entries(props.apis)) {
      this.alarm(`${name}ServerErrorRate`, {
        metric: new MathExpression({
          expression: '100 * errors / MAX([requests, 1])',
          usingMetrics: {
            errors: api.metricServerError({ statistic: 'Sum', period: PERIOD }),
            requests: api.metricCount({ statistic: 'Sum', period: PERIOD }),
          },
          label: `${name} 5xx %`,
          period: PERIOD,
        }),
        threshold: thresholds.serverErrorPercent,
        description: `More than ${thresholds.serverErrorPercent}% of the ${name} API's requests answered 5xx`,
      });
      this.alarm(`${name}P99Latency`, {
        metric: api.metricLatency({ statistic: 'p99', period: PERIOD }),
        threshold: thresholds.p99LatencyMs,
        description: `The ${name} API's p99 latency is above ${thresholds.p99LatencyMs} ms`,
      });
    }

    // Route functions: one Metrics Insights query over the AWS/Lambda metrics of every function whose
    // name ends in the stack's suffix, grouped by function. The alarm evaluates each function's
    // series on its own (a multi time series alarm), and its state reason and contributors name the
    // functions over the threshold. AWS's own metrics: a function that cannot start still counts.
    for (const [metricName, what] of [
      ['Errors', 'errors'],
      ['Throttles', 'throttles'],
    ] as const) {
      this.alarm(`RouteFunction${metricName}`, {
        metric: new MathExpression({
          expression: `SELECT SUM(${metricName}) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE FunctionName LIKE '%${props.routeFunctionSuffix}' GROUP BY FunctionName`,
          label: `route functions: ${what}`,
          period: PERIOD,
        }),
        threshold: thresholds.functionFaults,
        description: `A route function (<handler>${props.routeFunctionSuffix}) had ${thresholds.functionFaults} or more ${what} in 5 minutes; the alarm's contributors name it`,
        orEqual: true,
      });
    }

    for (const [name, fn] of props.functions) {
      this.alarm(`${name}Faults`, {
        metric: new MathExpression({
          expression: 'errors + throttles',
          usingMetrics: {
            errors: fn.metricErrors({ period: PERIOD }),
            throttles: fn.metricThrottles({ period: PERIOD }),
          },
          label: `${name} errors + throttles`,
          period: PERIOD,
        }),
        threshold: thresholds.functionFaults,
        description: `${name}: ${thresholds.functionFaults} or more errors and throttles in 5 minutes`,
        orEqual: true,
      });
    }

    for (const [name, table] of Object.entries(props.tables)) {
      const operations = { operations: OPERATIONS, period: PERIOD };
      this.alarm(`${name}TableThrottles`, {
        metric: table.metricThrottledRequestsForOperations(operations),
        threshold: thresholds.tableFaults,
        description: `The ${name} table throttled requests`,
        orEqual: true,
      });
      this.alarm(`${name}TableSystemErrors`, {
        metric: table.metricSystemErrorsForOperations(operations),
        threshold: thresholds.tableFaults,
        description: `DynamoDB answered the ${name} table's requests with system errors`,
        orEqual: true,
      });
    }

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    this.dashboard.addWidgets(
      ...Object.entries(props.apis).map(
        ([name, api]) =>
          new GraphWidget({
            title: `${name} API: requests, 4xx, 5xx`,
            left: [
              api.metricCount({ statistic: 'Sum', period: PERIOD }),
              api.metricClientError({ statistic: 'Sum', period: PERIOD }),
              api.metricServerError({ statistic: 'Sum', period: PERIOD }),
            ],
            right: [api.metricLatency({ statistic: 'p99', period: PERIOD })],
            width: 12,
          }),
      ),
    );
    // Per route, from the metrics each function's access line carries (shared/http/metrics.ts). A
    // group's rows include its fallback (unknown paths are traffic too); the docs' files are one route each.
    const routesOf = (api: Route['api']): Route[] => props.routes.filter((route) => route.api === api);
    for (const api of ['platform', 'backend'] as const) {
      const perRoute = (name: string, statistic: string, rows = routesOf(api)) =>
        rows.map(
          (route) =>
            new Metric({
              namespace: METRICS_NAMESPACE,
              metricName: name,
              dimensionsMap: { Service: props.serviceName, Api: api, Route: routeName(route) },
              statistic,
              period: PERIOD,
              label: routeName(route),
            }),
        );
      const graph = (title: string, metrics: Metric[]) =>
        new GraphWidget({ title: `${api}: ${title}`, left: metrics, width: 12 });
      this.dashboard.addWidgets(
        graph('requests by route', perRoute('Requests', 'Sum')),
        graph('5xx by route', perRoute('ServerErrors', 'Sum')),
        graph('4xx by route', perRoute('ClientErrors', 'Sum')),
        graph('rate-limited (429) by route', perRoute('RateLimited', 'Sum')),
        graph('p99 latency by route (ms)', perRoute('Latency', 'p99')),
        graph('p99 DynamoDB time by route (ms)', perRoute('DynamoDBLatency', 'p99')),
        graph(
          'p99 admission time by route (ms)',
          perRoute(
            'AdmissionLatency',
            'p99',
            routesOf(api).filter((route) => route.access !== 'public'),
          ),
        ),
      );
    }
    const login = props.routes.filter((route) => route.handler === 'login');
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'login failures',
        left: login.map(
          (route) =>
            new Metric({
              namespace: METRICS_NAMESPACE,
              metricName: 'LoginFailures',
              dimensionsMap: { Service: props.serviceName, Api: route.api, Route: routeName(route) },
              statistic: 'Sum',
              period: PERIOD,
            }),
        ),
        width: 12,
      }),
    );
  }

  /** An alarm on `metric` above its threshold, into the topic; no data is not a problem. */
  alarm(
    id: string,
    options: { metric: IMetric; threshold: number; description: string; orEqual?: boolean },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: 1,
      comparisonOperator: options.orEqual
        ? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
        : ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }
}
