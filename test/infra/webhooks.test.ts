import { Match, Template } from 'aws-cdk-lib/assertions';
import { streamConsumers } from '#shared/consumers.ts';
import { defaultStackTemplate } from '../support/synthesized-stack.ts';

// The webhook part of the stack: streams on the event tables, the delivery queue and its
// dead-letter queue, the alarm on dead letters, and what each function may do (no more).

// The route functions are in nested stacks: one merged template (test/support/stack-templates.ts),
// as the run synthesized it.
const template = Template.fromJSON(await defaultStackTemplate());

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
const resources = template.toJSON().Resources as Resources;

const idOf = (type: string, test: (properties: Record<string, unknown>) => boolean): string => {
  const found = Object.entries(resources).filter(
    ([, resource]) => resource.Type === type && test(resource.Properties),
  );
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0]?.[0] ?? '';
};
const mentions = (value: unknown, id: string): boolean => JSON.stringify(value).includes(`"${id}"`);

const queueId = idOf('AWS::SQS::Queue', (properties) => properties.RedrivePolicy !== undefined);
const redrive = resources[queueId]?.Properties.RedrivePolicy as
  | { deadLetterTargetArn: { 'Fn::GetAtt': string[] } }
  | undefined;
const deadLetterId = redrive?.deadLetterTargetArn['Fn::GetAtt'][0] ?? '';
const functionId = (description: string) =>
  idOf('AWS::Lambda::Function', (properties) => properties.Description === description);

type Statement = { Action: string | string[]; Resource: unknown };

/** Every IAM statement of a function's role (its inline policies and any policy attached), one action each. */
function grantsOf(fnId: string): { action: string; resource: string }[] {
  const roleId = (resources[fnId]?.Properties.Role as { 'Fn::GetAtt': string[] } | undefined)?.[
    'Fn::GetAtt'
  ][0];
  const role = resources[roleId ?? ''];
  const inline = (
    (role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]
  ).flatMap((policy) => policy.PolicyDocument.Statement);
  const attached = Object.values(resources)
    .filter(
      (resource) =>
        resource.Type === 'AWS::IAM::Policy' &&
        JSON.stringify(resource.Properties.Roles).includes(JSON.stringify(roleId)),
    )
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  return [...inline, ...attached].flatMap((statement) =>
    [statement.Action].flat().map((action) => ({ action, resource: JSON.stringify(statement.Resource) })),
  );
}

const logicalIdOfTable = (prefix: string) =>
  Object.keys(resources).find(
    (id) => id.startsWith(prefix) && resources[id]?.Type === 'AWS::DynamoDB::Table',
  ) ?? '';

describe('webhooks in the stack', () => {
  // The webhooks, teams and keys tables stream for the audit log alone (infra/consumers/audit-trail.ts).
  it('streams new and old images of projects, deployments, environment variables and domains (and, for the audit log, of webhooks, teams and keys), and of no other table', () => {
    const streamed = Object.entries(resources)
      .filter(
        ([, resource]) => resource.Type === 'AWS::DynamoDB::Table' && resource.Properties.StreamSpecification,
      )
      .map(([id, resource]) => [id.replace(/Table.*$/, ''), resource.Properties.StreamSpecification]);
    const both = { StreamViewType: 'NEW_AND_OLD_IMAGES' };
    expect(Object.fromEntries(streamed)).toEqual({
      ApiKeys: both,
      Projects: both,
      Deployments: both,
      Webhooks: both,
      Teams: both,
      Environment: both,
      Domains: both,
    });
  });

  it('has an encrypted delivery queue whose redrive goes to an encrypted dead-letter queue', () => {
    expect(resources[queueId]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 180,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(resources[deadLetterId]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    // Both refuse requests that are not TLS (and so does the stream-failures queue).
    template.resourcePropertiesCountIs(
      'AWS::SQS::QueuePolicy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      },
      3,
    );
  });

  it('feeds the fan-out from the four streams, and the delivery from the queue with partial batch failures', () => {
    const fanOut = functionId('webhooks: webhook-fan-out');
    const delivery = functionId('webhooks: deliver-webhooks');
    const mappings = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::Lambda::EventSourceMapping',
    );
    const fanOutSources = mappings.filter((mapping) => mentions(mapping.Properties.FunctionName, fanOut));
    expect(fanOutSources.map((mapping) => JSON.stringify(mapping.Properties.EventSourceArn)).sort()).toEqual(
      [
        logicalIdOfTable('Deployments'),
        logicalIdOfTable('Domains'),
        logicalIdOfTable('Environment'),
        logicalIdOfTable('Projects'),
      ].map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'StreamArn'] })),
    );
    for (const mapping of fanOutSources) {
      expect(mapping.Properties).toMatchObject({
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 10,
        StartingPosition: 'LATEST',
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    const deliverySources = mappings.filter((mapping) => mentions(mapping.Properties.FunctionName, delivery));
    expect(deliverySources.map((mapping) => mapping.Properties)).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      }),
    ]);
  });

  it("invokes each stream consumer only for the records its row's filter names (the fan-out: the environment's head items, domains' verifications and expiries)", () => {
    const mappings = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::Lambda::EventSourceMapping' && resource.Properties.StartingPosition,
    );
    const filtersOf = (description: string) =>
      Object.fromEntries(
        mappings
          .filter((mapping) => mentions(mapping.Properties.FunctionName, functionId(description)))
          .map((mapping) => [
            JSON.stringify(mapping.Properties.EventSourceArn).match(/"(\w+?)Table/)?.[1],
            (
              mapping.Properties.FilterCriteria as { Filters: { Pattern: string }[] } | undefined
            )?.Filters.map((filter) => JSON.parse(filter.Pattern)),
          ]),
      );
    const [fanOut, purge, promote] = streamConsumers;
    expect(filtersOf('webhooks: webhook-fan-out')).toEqual({
      Projects: undefined,
      Deployments: undefined,
      Environment: [{ dynamodb: { Keys: { sk: { S: ['set'] } } } }],
      Domains: [
        {
          eventName: ['MODIFY'],
          dynamodb: {
            NewImage: { status: { S: ['verified', 'expired'] } },
            OldImage: { status: { S: ['pending'] } },
          },
        },
      ],
    });
    expect(fanOut.filters.environment).toEqual({ dynamodb: { Keys: { sk: { S: ['set'] } } } });
    expect(filtersOf('projects: purge-project')).toEqual({ Projects: [purge.filters.projects] });
    expect(filtersOf('deployments: auto-promote')).toEqual({
      Deployments: [
        {
          eventName: ['MODIFY'],
          dynamodb: {
            NewImage: { status: { S: ['ready'] }, target: { S: ['production'] } },
            OldImage: { status: { S: [{ 'anything-but': ['ready'] }] } },
          },
        },
      ],
    });
    expect(promote.filters.deployments).toEqual(filtersOf('deployments: auto-promote').Deployments?.[0]);
  });

  it('lets automatic promotion read and move a project and write its history, with retries and the failure queue', () => {
    const fn = functionId('deployments: auto-promote');
    const dynamo = grantsOf(fn).filter(({ action }) => action.startsWith('dynamodb:'));
    const byTable = (prefix: string) =>
      dynamo
        .filter(
          ({ resource }) => resource.includes(logicalIdOfTable(prefix)) && !resource.includes('StreamArn'),
        )
        .map(({ action }) => action)
        .sort();
    expect(byTable('Projects')).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(byTable('Environment')).toEqual(['dynamodb:PutItem']);
    expect(dynamo.some(({ resource }) => /Users|ApiKeys|Webhooks|DeploymentLogs/.test(resource))).toBe(false);
    const [mapping] = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::Lambda::EventSourceMapping' && mentions(resource.Properties.FunctionName, fn),
    );
    expect(mapping?.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOfTable('Deployments'), 'StreamArn'] },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 100,
      MaximumRecordAgeInSeconds: 12 * 3600,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
  });

  it('lets the fan-out query subscriptions and send to the queue, and nothing else', () => {
    const grants = grantsOf(functionId('webhooks: webhook-fan-out'));
    const dynamo = grants.filter(({ action }) => action.startsWith('dynamodb:'));
    expect(dynamo.filter(({ resource }) => resource.includes(logicalIdOfTable('Webhooks')))).toEqual([
      { action: 'dynamodb:Query', resource: expect.any(String) },
    ]);
    // The rest reads the streams (the event source's own grant), on their stream ARNs only.
    const streamReads = dynamo.filter(({ resource }) => !resource.includes(logicalIdOfTable('Webhooks')));
    expect(new Set(streamReads.map(({ action }) => action))).toEqual(
      new Set([
        'dynamodb:ListStreams',
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
      ]),
    );
    for (const { action, resource } of streamReads) {
      if (action !== 'dynamodb:ListStreams') expect(resource).toContain('StreamArn');
    }
    // The delivery queue (SendMessage alone: its URL comes in a variable), and the stream-failures
    // queue that its event sources hand failed batches to (the event source's own grant).
    const sqsGrants = grants.filter(({ action }) => action.startsWith('sqs:'));
    expect(sqsGrants.filter(({ resource }) => resource.includes(queueId))).toEqual([
      { action: 'sqs:SendMessage', resource: JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }) },
    ]);
    expect(sqsGrants.filter(({ resource }) => !resource.includes(queueId))).toEqual(
      ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].map((action) => ({
        action,
        resource: expect.stringContaining('StreamFailuresQueue'),
      })),
    );
  });

  it('lets the delivery read and mark subscriptions, log attempts, and send to its own queue only', () => {
    const grants = grantsOf(functionId('webhooks: deliver-webhooks'));
    const byTable = (prefix: string) =>
      grants
        .filter(({ resource }) => resource.includes(logicalIdOfTable(prefix)))
        .map(({ action }) => action)
        .sort();
    expect(byTable('Webhooks')).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(byTable('WebhookDeliveries')).toEqual(['dynamodb:PutItem']);
    expect(grants.some(({ resource }) => /Projects|Deployments|Users|ApiKeys/.test(resource))).toBe(false);
    const sends = grants
      .filter(({ action }) => action === 'sqs:SendMessage')
      .map(({ resource }) => resource)
      .sort();
    expect(sends).toEqual([JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] })]);
  });

  it('gives the queue to the ping row alone among the endpoints, and no function the local-only settings', () => {
    const senders = Object.entries(resources)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .filter(([id]) =>
        grantsOf(id).some(
          ({ action, resource }) => action === 'sqs:SendMessage' && resource.includes(queueId),
        ),
      )
      .map(([, resource]) => resource.Properties.Description)
      .sort();
    expect(senders).toEqual([
      'POST /webhooks/{id}/test (platform)',
      'webhooks: deliver-webhooks',
      'webhooks: webhook-fan-out',
    ]);
    for (const resource of Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function')) {
      const variables = Object.keys(
        (resource.Properties.Environment as { Variables?: object } | undefined)?.Variables ?? {},
      );
      expect(variables).not.toContain('WEBHOOKS_ALLOW_PRIVATE_TARGETS');
      expect(variables).not.toContain('WEBHOOK_RETRY_BASE_SECONDS');
    }
  });
});
