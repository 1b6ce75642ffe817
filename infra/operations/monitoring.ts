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
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, routeName } from '#shared/http/metrics.ts';
import type { ApiGroup, Route } from '#shared/routes.ts';
import type { AlarmThresholds } from './alarm-thresholds.ts';
import { operationsOf, ALARM_PERIOD as PERIOD, throttleEvents } from './table-metrics.ts';

// What the people on call are told, and where they look. Every alarm goes to one SNS topic; its
// thresholds are stack settings with defaults that page for a real outage and not for one slow
// request. The alarms read AWS's own metrics (API Gateway, Lambda, DynamoDB), so they work even
// when a function cannot write a log line.

export interface MonitoringProps {
  thresholds: AlarmThresholds;
  /** Subscribed to the alarm topic when given. */
  alarmEmail?: string;
  apis: Record<string, RestApi>;
  /**
   * How every route function's name ends (`-<stack>`): one alarm watches their errors, each failing
   * function a contributor named in the alarm, so adding a route adds no alarm.
   */
  routeFunctionSuffix: string;
  /** Functions with an alarm of their own (the consumers): a fixed few, whatever the routes. */
  functions: ReadonlyMap<string, IFunction>;
  tables: Record<string, Table>;
  /** Each table's global secondary indexes by name (shared/db/tables.ts): their throttles are their own. */
  tableIndexes: Record<string, readonly string[]>;
  /**
   * The tables shared/db writes in transactions (TransactWriteItems): users (a user and its email's
   * marker), webhooks (a subscription and its owner's counter), API keys (a key and its owner's
   * ledger), environment (a set's versions, snapshots, production history), projects (the
   * production pointer with its history entry), and a log append's deployment logs table (the head
   * and the lines) with the deployments table (its condition that the deployment still builds).
   */
  transactionTables: readonly Table[];
  dashboardName: string;
  /** Whether the functions' metrics carry the route (the stack's `routeMetrics` setting): the dashboard graphs what they carry. */
  routeMetrics: boolean;
  /** The `Service` dimension the functions give their metrics (the stack's name). */
  serviceName: string;
  /** The rows the stack serves: the dashboard graphs each one. */
  routes: readonly Route[];
}

/** Datapoints of the 5xx-share and p99 alarms: this many of the last `of` 5-minute periods. */
export const API_ALARM_DATAPOINTS = { toAlarm: 2, of: 3 } as const;

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

    for (const [name, api] of Object.entries(props.apis)) this.apiAlarms(name, api, thresholds);

    // Route functions: one Metrics Insights query over the AWS/Lambda errors of every function whose
    // name ends in the stack's suffix, grouped by function. The alarm evaluates each function's series
    // on its own (a multi time series alarm), and its state reason and contributors name the functions
    // over the threshold, so adding a route adds no alarm. AWS's own metric: a function that cannot
    // start still counts. The consumers keep an alarm each on their errors; throttles are watched once
    // for the region: Lambda throttles when the account's concurrency runs out, which is not one
    // function's fault.
    this.alarm('RouteFunctionErrors', {
      metric: new MathExpression({
        expression: `SELECT SUM(Errors) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE FunctionName LIKE '%${props.routeFunctionSuffix}' GROUP BY FunctionName`,
        label: 'route functions: errors',
        period: PERIOD,
      }),
      threshold: thresholds.functionFaults,
      description: `A route function (<handler>${props.routeFunctionSuffix}) had ${thresholds.functionFaults} or more errors in 5 minutes; the alarm's contributors name it`,
      orEqual: true,
    });
    for (const [name, fn] of props.functions) {
      this.alarm(`${name}Faults`, {
        metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        threshold: thresholds.functionFaults,
        description: `${name}: ${thresholds.functionFaults} or more errors in 5 minutes`,
        orEqual: true,
      });
    }
    this.alarm('LambdaThrottles', {
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        period: PERIOD,
        statistic: 'Sum',
      }),
      threshold: thresholds.functionFaults,
      description: `Lambda (the whole region's functions): ${thresholds.functionFaults} or more throttled invocations in 5 minutes`,
      orEqual: true,
    });

    for (const [name, table] of Object.entries(props.tables)) {
      const operations = {
        operations: operationsOf(table, props.transactionTables.includes(table)),
        period: PERIOD,
      };
      this.alarm(`${name}TableThrottles`, {
        metric: throttleEvents(table, props.tableIndexes[name] ?? []),
        threshold: thresholds.tableFaults,
        description: `The ${name} table (or one of its indexes) throttled reads or writes`,
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
    const routesOf = (api: ApiGroup): Route[] => props.routes.filter((route) => route.api === api);
    for (const api of ['platform', 'backend'] as const) {
      const perRoute = (name: string, statistic: string, rows = routesOf(api)) =>
        props.routeMetrics
          ? rows.map(
              (route) =>
                new Metric({
                  namespace: METRICS_NAMESPACE,
                  metricName: name,
                  dimensionsMap: { Service: props.serviceName, Api: api, Route: routeName(route) },
                  statistic,
                  period: PERIOD,
                  label: routeName(route),
                }),
            )
          : [
              new Metric({
                namespace: METRICS_NAMESPACE,
                metricName: name,
                dimensionsMap: { Service: props.serviceName, Api: api },
                statistic,
                period: PERIOD,
                label: api,
              }),
            ];
      const by = props.routeMetrics ? 'by route' : '(all routes)';
      const graph = (title: string, metrics: Metric[]) =>
        new GraphWidget({ title: `${api}: ${title.replace('by route', by)}`, left: metrics, width: 12 });
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
              dimensionsMap: {
                Service: props.serviceName,
                Api: route.api,
                ...(props.routeMetrics ? { Route: routeName(route) } : {}),
              },
              statistic: 'Sum',
              period: PERIOD,
            }),
        ),
        width: 12,
      }),
    );
  }

  /**
   * A stage's 5xx share and p99 latency, each counted only in periods with at least
   * `minimumRequests` requests (else 0) and alarming in 2 of the last 3 periods: a quiet stage's
   * one 503, or one slow request, is not an outage.
   */
  private apiAlarms(name: string, api: RestApi, thresholds: AlarmThresholds): void {
    const requests = api.metricCount({ statistic: 'Sum', period: PERIOD });
    const enough = `requests >= ${thresholds.minimumRequests}`;
    this.alarm(`${name}ServerErrorRate`, {
      metric: new MathExpression({
        expression: `IF(${enough}, 100 * errors / requests, 0)`,
        usingMetrics: { errors: api.metricServerError({ statistic: 'Sum', period: PERIOD }), requests },
        label: `${name} 5xx %`,
        period: PERIOD,
      }),
      threshold: thresholds.serverErrorPercent,
      datapoints: API_ALARM_DATAPOINTS,
      description: `More than ${thresholds.serverErrorPercent}% of the ${name} API's requests answered 5xx, in ${API_ALARM_DATAPOINTS.toAlarm} of ${API_ALARM_DATAPOINTS.of} 5-minute periods with ${thresholds.minimumRequests} requests or more`,
    });
    this.alarm(`${name}P99Latency`, {
      metric: new MathExpression({
        expression: `IF(${enough}, latency, 0)`,
        usingMetrics: { latency: api.metricLatency({ statistic: 'p99', period: PERIOD }), requests },
        label: `${name} p99 latency`,
        period: PERIOD,
      }),
      threshold: thresholds.p99LatencyMs,
      datapoints: API_ALARM_DATAPOINTS,
      description: `The ${name} API's p99 latency is above ${thresholds.p99LatencyMs} ms, in ${API_ALARM_DATAPOINTS.toAlarm} of ${API_ALARM_DATAPOINTS.of} 5-minute periods with ${thresholds.minimumRequests} requests or more`,
    });
  }

  /** An alarm on `metric` above its threshold, into the topic; no data is not a problem. */
  alarm(
    id: string,
    options: {
      metric: IMetric;
      threshold: number;
      description: string;
      orEqual?: boolean;
      /** `toAlarm` breaching periods of the last `of`; one of one unless given. */
      datapoints?: { toAlarm: number; of: number };
    },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.datapoints?.of ?? 1,
      ...(options.datapoints ? { datapointsToAlarm: options.datapoints.toAlarm } : {}),
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
