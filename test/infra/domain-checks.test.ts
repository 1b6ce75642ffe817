import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PlatformStack } from '#infra/platform-stack.ts';
import { DEFAULT_DOMAIN_TARGET } from '#shared/model/custom-domains/domains.ts';
import { flattenedStack, TEST_SYNTH_CONTEXT, testOutdir } from '../support/stack-templates.ts';
import { defaultStackTemplate } from '../support/synthesized-stack.ts';

// Custom domains in the stack: the rule that runs the background checks every minute, what their
// function may do (query the due queue, write a check: no more), the alarm on its errors, and the
// routing target given to the functions that show or check it.

type Resource = { Type: string; Properties: Record<string, unknown> };

function synthesized(context: Record<string, string>): Record<string, Resource> {
  const app = new App({ outdir: testOutdir(), context: { ...TEST_SYNTH_CONTEXT, ...context } });
  new PlatformStack(app, 'PlatformStack', context.domainTarget ? { domainTarget: context.domainTarget } : {});
  return Template.fromJSON(flattenedStack(app, 'PlatformStack')).toJSON().Resources as Record<
    string,
    Resource
  >;
}

// The default stack as the run synthesized it.
const resources = (await defaultStackTemplate()).Resources as Record<string, Resource>;
const entries = Object.entries(resources);
const mentions = (value: unknown, id: string): boolean => JSON.stringify(value).includes(`"${id}"`);

const functionIdOf = (found: Record<string, Resource>, description: string): string => {
  const ids = Object.entries(found)
    .filter(
      ([, resource]) =>
        resource.Type === 'AWS::Lambda::Function' && resource.Properties.Description === description,
    )
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one function "${description}", found ${ids.length}`);
  return ids[0] ?? '';
};
const recheckId = functionIdOf(resources, 'domains: recheck-domains');
const tableId =
  entries.find(
    ([id, resource]) => resource.Type === 'AWS::DynamoDB::Table' && id.startsWith('DomainsTable'),
  )?.[0] ?? '';

type Statement = { Action: string | string[]; Resource: unknown };

/** A function's IAM statements on DynamoDB (its role's inline policies and those attached), one action each. */
function dynamoGrantsOf(fnId: string): { action: string; resource: string }[] {
  const roleId =
    (resources[fnId]?.Properties.Role as { 'Fn::GetAtt': string[] } | undefined)?.['Fn::GetAtt'][0] ?? '';
  const inline = (
    (resources[roleId]?.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]
  ).flatMap((policy) => policy.PolicyDocument.Statement);
  const attached = entries
    .filter(
      ([, resource]) => resource.Type === 'AWS::IAM::Policy' && mentions(resource.Properties.Roles, roleId),
    )
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  return [...inline, ...attached]
    .flatMap((statement) =>
      [statement.Action].flat().map((action) => ({ action, resource: JSON.stringify(statement.Resource) })),
    )
    .filter(({ action }) => action.startsWith('dynamodb:'));
}

describe('custom domains in the stack', () => {
  it('keeps the domains in a table keyed by name, with the project list and the due queue as indexes', () => {
    expect(resources[tableId]?.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        expect.objectContaining({
          IndexName: 'byProject',
          KeySchema: [
            { AttributeName: 'projectId', KeyType: 'HASH' },
            { AttributeName: 'listOrder', KeyType: 'RANGE' },
          ],
        }),
        expect.objectContaining({
          IndexName: 'dueChecks',
          KeySchema: [
            { AttributeName: 'checkQueue', KeyType: 'HASH' },
            { AttributeName: 'nextCheckAt', KeyType: 'RANGE' },
          ],
        }),
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('runs the background checks every minute, once per run, from an EventBridge rule allowed to invoke that function alone', () => {
    const rules = entries.filter(([, resource]) => resource.Type === 'AWS::Events::Rule');
    expect(rules.map(([, rule]) => rule.Properties)).toEqual([
      expect.objectContaining({
        ScheduleExpression: 'rate(1 minute)',
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: { 'Fn::GetAtt': [recheckId, 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 0 },
          }),
        ],
      }),
    ]);
    const [ruleId] = rules[0] ?? [];
    const permissions = entries.filter(
      ([, resource]) =>
        resource.Type === 'AWS::Lambda::Permission' &&
        resource.Properties.Principal === 'events.amazonaws.com',
    );
    expect(permissions.map(([, permission]) => permission.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [recheckId, 'Arn'] },
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      }),
    ]);
    expect(resources[recheckId]?.Properties.Timeout).toBe(60);
  });

  it('lets the checks query the due queue and update domains, and nothing else in DynamoDB', () => {
    expect(dynamoGrantsOf(recheckId)).toEqual([
      { action: 'dynamodb:UpdateItem', resource: JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }) },
      {
        action: 'dynamodb:Query',
        resource: JSON.stringify({
          'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/dueChecks']],
        }),
      },
    ]);
  });

  it('alarms on errors of the checks, to the alarm topic', () => {
    const alarms = entries.filter(
      ([, resource]) =>
        resource.Type === 'AWS::CloudWatch::Alarm' &&
        String(resource.Properties.AlarmDescription).startsWith('RecheckDomains: '),
    );
    expect(alarms.map(([, alarm]) => alarm.Properties)).toEqual([
      expect.objectContaining({
        MetricName: 'Errors',
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: recheckId } }],
        AlarmActions: [expect.objectContaining({ Ref: expect.stringContaining('AlarmTopic') })],
      }),
    ]);
  });

  it('gives the routing target to the functions that show or check it, the default unless -c domainTarget', () => {
    const targetOf = (found: Record<string, Resource>, description: string) =>
      (
        found[functionIdOf(found, description)]?.Properties.Environment as
          | { Variables?: Record<string, unknown> }
          | undefined
      )?.Variables?.DOMAIN_TARGET;
    const showers = [
      'domains: recheck-domains',
      'POST /projects/{id}/domains (platform)',
      'POST /projects/{id}/domains/{name}/verify (platform)',
    ];
    expect(showers.map((description) => targetOf(resources, description))).toEqual(
      showers.map(() => DEFAULT_DOMAIN_TARGET),
    );
    expect(targetOf(resources, 'GET /projects/{id}/domains/{name} (platform)')).toBeUndefined();
    const configured = synthesized({ domainTarget: 'edge.example.net' });
    expect(showers.map((description) => targetOf(configured, description))).toEqual(
      showers.map(() => 'edge.example.net'),
    );
  });
});
