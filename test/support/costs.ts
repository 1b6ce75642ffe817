// The fixed monthly cost of one stage at zero traffic, read off its synthesized template with AWS's
// list prices (us-east-1, as written in docs/costs.md). Only what is billed whether or not a
// request comes: per-request items are in the doc's second table.

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** List prices, US dollars a month (docs/costs.md says where each comes from). */
export const PRICES = {
  webAcl: 5,
  wafRule: 1,
  secret: 0.4,
  dashboard: 3,
  /** A customer managed KMS key; its yearly rotation keeps it one key (AWS bills each rotated version after the first two: $1 more from the third year). */
  kmsKey: 1,
  alarmMetric: 0.1,
  /** Lambda's long polling of an idle SQS event source: about 650,000 ReceiveMessage calls a month at $0.40 a million. */
  idleQueuePolling: 0.26,
} as const;

export interface CostLine {
  item: string;
  count: number;
  monthly: number;
}

/**
 * How many metrics an alarm reads: CloudWatch bills an alarm per metric, a metric math alarm per metric
 * in it, and a Metrics Insights query alarm per metric the query analyzes: here the functions whose
 * name its `LIKE '%<suffix>'` matches (infra/operations/monitoring.ts).
 */
export function alarmMetrics(properties: Record<string, unknown>, resources: Resources): number {
  const metrics = properties.Metrics as { MetricStat?: unknown; Expression?: string }[] | undefined;
  if (!metrics) return 1;
  return metrics.reduce((sum, metric) => {
    if (metric.MetricStat !== undefined) return sum + 1;
    const suffix = /FROM SCHEMA\("AWS\/Lambda", FunctionName\) WHERE FunctionName LIKE '%([^'%_]+)'/.exec(
      metric.Expression ?? '',
    )?.[1];
    if (suffix === undefined) return sum;
    const named = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::Lambda::Function' &&
        String(resource.Properties.FunctionName).endsWith(suffix),
    );
    return sum + named.length;
  }, 0);
}

const round = (dollars: number): number => Math.round(dollars * 100) / 100;

export function fixedMonthlyCost(resources: Resources): { lines: CostLine[]; total: number } {
  const all = Object.values(resources);
  const ofType = (type: string) => all.filter((resource) => resource.Type === type);
  const rules = ofType('AWS::WAFv2::WebACL').reduce(
    (sum, acl) => sum + ((acl.Properties.Rules as unknown[] | undefined)?.length ?? 0),
    0,
  );
  const metrics = ofType('AWS::CloudWatch::Alarm').reduce(
    (sum, alarm) => sum + alarmMetrics(alarm.Properties, resources),
    0,
  );
  const polled = ofType('AWS::Lambda::EventSourceMapping').filter((mapping) =>
    JSON.stringify(mapping.Properties.EventSourceArn).includes('Queue'),
  ).length;
  const lines: CostLine[] = [
    { item: 'WAF web ACL', count: ofType('AWS::WAFv2::WebACL').length, monthly: PRICES.webAcl },
    { item: 'WAF rules', count: rules, monthly: PRICES.wafRule },
    {
      item: 'Secrets Manager secrets',
      count: ofType('AWS::SecretsManager::Secret').length,
      monthly: PRICES.secret,
    },
    {
      item: 'CloudWatch dashboard',
      count: ofType('AWS::CloudWatch::Dashboard').length,
      monthly: PRICES.dashboard,
    },
    {
      item: 'KMS key (environment variables)',
      count: ofType('AWS::KMS::Key').length,
      monthly: PRICES.kmsKey,
    },
    { item: 'CloudWatch alarm metrics', count: metrics, monthly: PRICES.alarmMetric },
    { item: 'SQS event source, idle polling', count: polled, monthly: PRICES.idleQueuePolling },
  ].map((line) => ({ ...line, monthly: round(line.count * line.monthly) }));
  return { lines, total: round(lines.reduce((sum, line) => sum + line.monthly, 0)) };
}
