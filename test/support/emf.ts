// A strict reader of CloudWatch's Embedded Metric Format, as the EMF specification states it: a
// line that fails any rule here would be dropped or mis-read by CloudWatch Logs' extraction.

/** CloudWatch's metric units. */
const UNITS = new Set([
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
]);

export interface EmfMetrics {
  namespace: string;
  /** Each dimension set with the values the line gives its dimensions. */
  dimensions: Record<string, string>[];
  /** Metric name to value and unit. */
  metrics: Record<string, { value: number; unit: string }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses one log line as EMF; throws naming the first rule it breaks. */
export function parseEmf(line: string): EmfMetrics {
  const root: unknown = JSON.parse(line);
  if (!isRecord(root) || !isRecord(root._aws)) throw new Error('no _aws object');
  const { Timestamp, CloudWatchMetrics } = root._aws;
  if (typeof Timestamp !== 'number' || !Number.isInteger(Timestamp) || Timestamp <= 0)
    throw new Error('_aws.Timestamp is not epoch milliseconds');
  if (!Array.isArray(CloudWatchMetrics) || CloudWatchMetrics.length !== 1)
    throw new Error('_aws.CloudWatchMetrics is not one directive');
  const [directive] = CloudWatchMetrics as unknown[];
  if (!isRecord(directive)) throw new Error('the directive is not an object');
  const { Namespace, Dimensions, Metrics } = directive;
  if (typeof Namespace !== 'string' || Namespace.length === 0 || Namespace.length > 255)
    throw new Error('Namespace must be 1 to 255 characters');
  if (!Array.isArray(Dimensions)) throw new Error('Dimensions is not an array of dimension sets');
  const dimensions = Dimensions.map((set: unknown) => {
    if (!Array.isArray(set) || set.length > 30)
      throw new Error('a dimension set is not an array of ≤ 30 names');
    return Object.fromEntries(
      set.map((name: unknown) => {
        if (typeof name !== 'string') throw new Error('a dimension name is not a string');
        const value = root[name];
        if (typeof value !== 'string' || value.length === 0 || value.length > 1024)
          throw new Error(`the dimension ${name} has no string member of 1 to 1024 characters`);
        return [name, value];
      }),
    );
  });
  if (!Array.isArray(Metrics) || Metrics.length === 0 || Metrics.length > 100)
    throw new Error('Metrics must list 1 to 100 metrics');
  const metrics: EmfMetrics['metrics'] = {};
  for (const metric of Metrics as unknown[]) {
    if (!isRecord(metric) || typeof metric.Name !== 'string' || metric.Name.length === 0)
      throw new Error('a metric has no Name');
    const { Name, Unit } = metric;
    if (Name in metrics) throw new Error(`the metric ${Name} is declared twice`);
    if (Unit !== undefined && (typeof Unit !== 'string' || !UNITS.has(Unit)))
      throw new Error(`the metric ${Name} has a unit CloudWatch does not know: ${String(Unit)}`);
    const value = root[Name];
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new Error(`the metric ${Name} has no numeric top-level member`);
    if (dimensions.some((set) => Name in set)) throw new Error(`${Name} is both a metric and a dimension`);
    metrics[Name] = { value, unit: Unit ?? 'None' };
  }
  return { namespace: Namespace, dimensions, metrics };
}
