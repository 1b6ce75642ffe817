import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { PlatformStack } from '#infra/platform-stack.ts';
import { stackSettingsOf } from '#infra/stack-settings.ts';
import { type TableDefinition, tableKeys, tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE } from '#shared/domain/key-identity.ts';
import { routes } from '#shared/routes.ts';
import { fixedMonthlyCost } from '../support/costs.ts';
import { flattenedStack, TEST_SYNTH_CONTEXT, testOutdir } from '../support/stack-templates.ts';
import { defaultStackTemplate } from '../support/synthesized-stack.ts';

// What the desk review of the first deploy asked for (issue 21), read off the template: a seed
// rotation that the template carries out, stream records that never vanish, alarms that page only
// for our faults and only with enough traffic, a WAF that sees through encoded paths and logs, and
// the fixed cost of a stage written down.

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
type Resources = Record<string, Resource>;

/** The root's resources with its route families' merged in (test/support/stack-templates.ts). */
function synth(context: Record<string, string>): Resources {
  const app = new App({ outdir: testOutdir(), context: TEST_SYNTH_CONTEXT });
  const { props } = stackSettingsOf((key) => context[key]);
  new PlatformStack(app, 'PlatformStack', props);
  return flattenedStack(app, 'PlatformStack').Resources as Resources;
}

// The default stack as the run synthesized it.
const resources = (await defaultStackTemplate()).Resources as Resources;
const configured = synth({
  keySigningSeedVersion: 'a1b2c3d4-rotated',
  routeMetrics: 'on',
  minimumRequests: '500',
  logRetentionDays: '90',
});

const ofType = (from: Resources, type: string) =>
  Object.entries(from).filter(([, resource]) => resource.Type === type);
const only = <T>(found: T[]): T => {
  expect(found).toHaveLength(1);
  return found[0] as T;
};
const functionId = (from: Resources, description: string): string =>
  only(
    ofType(from, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Description === description),
  )[0];
const routeFunctionId = (from: Resources, handler: string) => functionId(from, describeFunction(handler));
const variablesOf = (from: Resources, id: string) =>
  (from[id]?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
const mentions = (value: unknown, id: string): boolean => JSON.stringify(value ?? null).includes(`"${id}"`);

interface AlarmMetric {
  Id: string;
  Expression?: string;
  MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] };
    Stat: string;
  };
}
const alarms = (from: Resources) =>
  ofType(from, 'AWS::CloudWatch::Alarm').map(
    ([id, alarm]) =>
      ({ id, ...alarm.Properties }) as Record<string, unknown> & { id: string; Metrics?: AlarmMetric[] },
  );
const alarmsReading = (from: Resources, metricName: string) =>
  alarms(from).filter(
    (alarm) =>
      alarm.MetricName === metricName ||
      (alarm.Metrics ?? []).some((metric) => metric.MetricStat?.Metric.MetricName === metricName),
  );

/** The nested stacks (ids before the last `.`) that hold a merged resource, innermost first. */
const stacksOf = (id: string): string[] => {
  const cut = id.lastIndexOf('.');
  return cut < 0 ? [] : [id.slice(0, cut), ...stacksOf(id.slice(0, cut))];
};

/**
 * Whether CloudFormation updates `later` only after `earlier`: a resource waits for what it depends on,
 * and for what its nested stack depends on; waiting for a nested stack is waiting for all it holds.
 */
function updatedAfter(from: Resources, later: string, earlier: string): boolean {
  const done = new Set([earlier, ...stacksOf(earlier)]);
  const seen = new Set<string>();
  const pending = [later, ...stacksOf(later)];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dependency of from[id]?.DependsOn ?? []) {
      if (done.has(dependency)) return true;
      pending.push(dependency, ...stacksOf(dependency));
    }
  }
  return false;
}

describe('1. key-signing seed rotation', () => {
  const customResource = (from: Resources) => only(ofType(from, 'Custom::KeySigningPublicKey'))[1];

  it('gives the public-key custom resource the rotation input as a property, so a rotation re-runs it', () => {
    expect(customResource(resources).Properties).toEqual({
      ServiceToken: expect.anything(),
      SeedVersion: 'initial',
    });
    expect(customResource(configured).Properties).toEqual({
      ServiceToken: expect.anything(),
      SeedVersion: 'a1b2c3d4-rotated',
    });
  });

  it('publishes the keys to every function that verifies or issues keys, and to no other', () => {
    const [publicKeyId] = only(ofType(resources, 'Custom::KeySigningPublicKey'));
    for (const route of routes) {
      const published = variablesOf(resources, routeFunctionId(resources, route.handler))[
        PUBLIC_KEYS_VARIABLE
      ];
      if (route.access === 'apiKey' || route.secrets?.includes('keySigningSeed')) {
        expect(published).toEqual({ 'Fn::GetAtt': [publicKeyId, 'PublicKeys'] });
      } else {
        expect(published).toBeUndefined();
      }
    }
  });

  it('updates the key issuers only after every function that verifies keys', () => {
    const issuers = routes.filter((route) => route.secrets?.includes('keySigningSeed'));
    const verifiers = routes.filter((route) => route.access === 'apiKey' && !issuers.includes(route));
    expect(issuers.map((route) => route.handler).sort()).toEqual([
      'create-key',
      'create-team-token',
      'login',
    ]);
    for (const issuer of issuers) {
      const issuerId = routeFunctionId(resources, issuer.handler);
      for (const verifier of verifiers) {
        expect([
          issuer.handler,
          updatedAfter(resources, issuerId, routeFunctionId(resources, verifier.handler)),
        ]).toEqual([issuer.handler, true]);
      }
    }
  });

  it('reads the seed without the extension cache in the custom resource, so a deploy right after a rotation sees it', () => {
    const fn = functionId(resources, 'Custom resource: the public key of the key-signing seed');
    expect(variablesOf(resources, fn)).toMatchObject({ SECRETS_MANAGER_TTL: '0' });
  });
});

describe('2. stream consumers never drop records in silence', () => {
  const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping').map(
    ([, mapping]) => mapping.Properties,
  );
  const [failuresQueueId] = only(
    ofType(resources, 'AWS::SQS::Queue').filter(([id]) => id.startsWith('StreamFailures')),
  );
  const streamMappings = mappings.filter((mapping) => mapping.StartingPosition !== undefined);

  it('sends what every stream mapping gives up on to the stream-failures queue, after bisecting, while the stream still holds it', () => {
    // The fan-out reads the projects, deployments, environment and domains streams; the purge the
    // projects one; the automatic promotion the deployments one; the audit log's recorder those four,
    // the webhooks', the teams' and the keys'.
    expect(streamMappings).toHaveLength(13);
    for (const mapping of streamMappings) {
      expect(mapping).toMatchObject({
        BisectBatchOnFunctionError: true,
        MaximumRecordAgeInSeconds: 12 * 3600,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failuresQueueId, 'Arn'] } } },
      });
    }
  });

  it("has no mapping without a place for failures: the queue mapping's is its redrive policy", () => {
    const queueMappings = mappings.filter((mapping) => mapping.StartingPosition === undefined);
    expect(queueMappings).toHaveLength(1);
    const queueId = only(
      ofType(resources, 'AWS::SQS::Queue').filter(([id]) => mentions(queueMappings[0]?.EventSourceArn, id)),
    )[0];
    expect(resources[queueId]?.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
    expect(queueMappings[0]?.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('alarms on every message that reaches the stream-failures queue', () => {
    const [alarm] = alarmsReading(resources, 'NumberOfMessagesSent');
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [failuresQueueId, 'QueueName'] } }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [expect.anything()],
    });
  });

  it('alarms on the IteratorAge of every function a stream feeds, in 2 of 3 periods', () => {
    const fed = [...new Set(streamMappings.map((mapping) => JSON.stringify(mapping.FunctionName)))];
    const iteratorAlarms = alarmsReading(resources, 'IteratorAge');
    expect(
      iteratorAlarms
        .map((alarm) => JSON.stringify((alarm.Dimensions as { Value: unknown }[])[0]?.Value))
        .sort(),
    ).toEqual(fed.sort());
    for (const alarm of iteratorAlarms) {
      expect(alarm).toMatchObject({
        Statistic: 'Maximum',
        Threshold: 10 * 60 * 1000,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        AlarmActions: [expect.anything()],
      });
    }
  });
});

describe('3. webhook dead letters are our faults only, and page on arrival', () => {
  const [queueId] = only(
    ofType(resources, 'AWS::SQS::Queue').filter(([, queue]) => queue.Properties.RedrivePolicy),
  );
  const redrive = resources[queueId]?.Properties.RedrivePolicy as
    | { deadLetterTargetArn: { 'Fn::GetAtt': string[] } }
    | undefined;
  const deadLetterId = redrive?.deadLetterTargetArn['Fn::GetAtt'][0] ?? '';

  it('lets no function send to the dead-letter queue: only the redrive policy fills it', () => {
    const policies = ofType(resources, 'AWS::IAM::Policy').map(
      ([, policy]) => policy.Properties.PolicyDocument,
    );
    expect(policies.filter((document) => mentions(document, deadLetterId))).toEqual([]);
    const delivery = functionId(resources, 'webhooks: deliver-webhooks');
    expect(Object.keys(variablesOf(resources, delivery))).not.toContain('WEBHOOK_DEAD_LETTER_QUEUE_URL');
  });

  it('alarms on an increase of the visible dead letters, not on a standing depth', () => {
    const alarm = only(
      alarms(resources).filter((candidate) =>
        (candidate.Metrics ?? []).some((metric) =>
          mentions(metric.MetricStat?.Metric.Dimensions, deadLetterId),
        ),
      ),
    );
    expect(alarm).toMatchObject({
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [expect.anything()],
      OKActions: [expect.anything()],
    });
    const [expression, visible] = [
      alarm.Metrics?.find((metric) => metric.Expression),
      alarm.Metrics?.find((metric) => metric.MetricStat),
    ];
    expect(expression?.Expression).toBe(`DIFF(FILL(${visible?.Id}, 0))`);
    expect(visible?.MetricStat?.Metric.MetricName).toBe('ApproximateNumberOfMessagesVisible');
  });
});

describe('4. alarms that need enough traffic', () => {
  it.each([
    ['5xx share', 'ServerErrorRate', '100 * errors / requests'],
    ['p99 latency', 'P99Latency', 'latency'],
  ])('counts the %s only in periods with the minimum of requests, alarming in 2 of 3', (_, name, value) => {
    for (const [from, minimum] of [
      [resources, 100],
      [configured, 500],
    ] as const) {
      const found = alarms(from).filter((alarm) => alarm.id.includes(name));
      expect(found).toHaveLength(2);
      for (const alarm of found) {
        expect(alarm).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 2 });
        expect(alarm.Metrics?.find((metric) => metric.Expression)?.Expression).toBe(
          `IF(requests >= ${minimum}, ${value}, 0)`,
        );
        expect(alarm.Metrics?.find((metric) => metric.Id === 'requests')?.MetricStat?.Metric.MetricName).toBe(
          'Count',
        );
      }
    }
  });
});

describe('5. WAF', () => {
  const [, webAcl] = only(ofType(resources, 'AWS::WAFv2::WebACL'));
  const rules = webAcl.Properties.Rules as { Name: string; Statement: Record<string, unknown> }[];

  it('decodes, normalizes and lower-cases the path before matching /auth/*', () => {
    const auth = rules.find((rule) => rule.Name === 'AuthRequestsPerAddress');
    expect(auth?.Statement).toMatchObject({
      RateBasedStatement: {
        ScopeDownStatement: {
          ByteMatchStatement: {
            FieldToMatch: { UriPath: {} },
            SearchString: '/live/auth/',
            TextTransformations: [
              { Priority: 0, Type: 'URL_DECODE' },
              { Priority: 1, Type: 'NORMALIZE_PATH' },
              { Priority: 2, Type: 'LOWERCASE' },
            ],
          },
        },
      },
    });
  });

  it.each([
    ['the default 30 days', resources, 30],
    ['the stack setting', configured, 90],
  ])(
    'logs to an aws-waf-logs- log group kept for %s, with the Authorization header redacted',
    (_, from, days) => {
      const [logGroupId, logGroup] = only(
        ofType(from, 'AWS::Logs::LogGroup').filter(([, group]) =>
          String(group.Properties.LogGroupName ?? '').startsWith('aws-waf-logs-'),
        ),
      );
      expect(logGroup.Properties).toEqual({
        LogGroupName: 'aws-waf-logs-PlatformStack',
        RetentionInDays: days,
      });
      const [webAclId] = only(ofType(from, 'AWS::WAFv2::WebACL'));
      const [, logging] = only(ofType(from, 'AWS::WAFv2::LoggingConfiguration'));
      expect(logging.Properties).toEqual({
        ResourceArn: { 'Fn::GetAtt': [webAclId, 'Arn'] },
        LogDestinationConfigs: [
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':logs:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':log-group:aws-waf-logs-PlatformStack',
              ],
            ],
          },
        ],
        RedactedFields: [{ SingleHeader: { Name: 'authorization' } }],
      });
      expect(JSON.stringify(from)).toContain(logGroupId);
    },
  );
});

describe('6. costs', () => {
  it('keeps the fixed monthly cost of the default stage at zero traffic under $40, as docs/costs.md says', () => {
    const { lines, total } = fixedMonthlyCost(resources);
    expect(total).toBeLessThan(40);
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'costs.md'), 'utf8');
    // The doc's table is this computation's: when the stack changes, the doc changes with it.
    for (const line of lines) {
      expect(doc).toContain(`| ${line.item} | ${line.count} |`);
      expect(doc).toContain(`| $${line.monthly.toFixed(2)} |`);
    }
    expect(doc).toContain(`**$${total.toFixed(2)}**`);
  });

  it('keeps the route out of the metrics unless routeMetrics is on, and graphs what the functions send', () => {
    for (const [from, setting] of [
      [resources, 'off'],
      [configured, 'on'],
    ] as const) {
      for (const route of routes) {
        expect(variablesOf(from, routeFunctionId(from, route.handler)).METRICS_BY_ROUTE).toBe(setting);
      }
      const [, dashboard] = only(ofType(from, 'AWS::CloudWatch::Dashboard'));
      const body = JSON.stringify(dashboard.Properties.DashboardBody);
      expect(body.includes('\\"Route\\"')).toBe(setting === 'on');
    }
  });
});

describe('7. table alarms over every operation', () => {
  const operationsWatched = (tablePrefix: string, metricName: string): string[] => {
    const [tableId] = only(
      ofType(resources, 'AWS::DynamoDB::Table').filter(([id]) => id.startsWith(tablePrefix)),
    );
    const alarm = only(
      alarmsReading(resources, metricName).filter((candidate) =>
        (candidate.Metrics ?? []).some((metric) => mentions(metric.MetricStat?.Metric.Dimensions, tableId)),
      ),
    );
    return (alarm.Metrics ?? [])
      .flatMap((metric) => metric.MetricStat?.Metric.Dimensions ?? [])
      .filter((dimension) => dimension.Name === 'Operation')
      .map((dimension) => String(dimension.Value))
      .sort();
  };

  it.each(['SystemErrors'])('watches %s of deletes and transactions too', (metricName) => {
    // A log append's transaction checks the deployment's status (a condition check on its item).
    expect(operationsWatched('Deployments', metricName)).toEqual([
      // A deployment read with the caller's membership of its team (shared/db/teams/with-membership.ts).
      'BatchGetItem',
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
      'TransactWriteItems',
      'UpdateItem',
    ]);
    expect(operationsWatched('DeploymentLogs', metricName)).toEqual([
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
      'TransactWriteItems',
      'UpdateItem',
    ]);
    expect(operationsWatched('Projects', metricName)).toContain('DeleteItem');
    expect(operationsWatched('Users', metricName)).toEqual([
      // The audit log's page reads its people's emails in one call.
      'BatchGetItem',
      'GetItem',
      'PutItem',
      'Query',
      'TransactWriteItems',
      'UpdateItem',
    ]);
    expect(operationsWatched('Webhooks', metricName)).toEqual([
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
      'TransactWriteItems',
      'UpdateItem',
    ]);
    expect(operationsWatched('RateLimits', metricName)).toEqual(['UpdateItem']);
  });
  // Throttles of every operation show as the table's (or an index's) read and write throttle events:
  // two metrics a table and two an index, whatever the grants.
  it('watches the read and write throttle events of every table and each of its indexes', () => {
    for (const key of tableKeys) {
      const prefix = key.charAt(0).toUpperCase() + key.slice(1);
      const [tableId] = only(
        ofType(resources, 'AWS::DynamoDB::Table').filter(([id]) => id.startsWith(prefix)),
      );
      const alarm = only(
        alarmsReading(resources, 'WriteThrottleEvents').filter((candidate) =>
          (candidate.Metrics ?? []).some((metric) => mentions(metric.MetricStat?.Metric.Dimensions, tableId)),
        ),
      );
      const watched = (alarm.Metrics ?? [])
        .flatMap(({ MetricStat }) => (MetricStat ? [MetricStat.Metric] : []))
        .map(({ MetricName, Dimensions = [] }) => {
          const index = Dimensions.find((dimension) => dimension.Name === 'GlobalSecondaryIndexName');
          return `${MetricName}${index ? ` ${String(index.Value)}` : ''}`;
        })
        .sort();
      const indexes = Object.keys((tables[key] as TableDefinition).indexes ?? {});
      expect(watched).toEqual(
        [
          'ReadThrottleEvents',
          'WriteThrottleEvents',
          ...indexes.flatMap((index) => [`ReadThrottleEvents ${index}`, `WriteThrottleEvents ${index}`]),
        ].sort(),
      );
    }
  });
});
