import { functionGrants } from '#infra/access/grants.ts';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { routes } from '#shared/routes.ts';
import { defaultStackTemplate } from '../support/synthesized-stack.ts';

// The KMS key that seals environment variables, and who may use it how: data keys for the writers,
// plain values opened by the list and PATCH only under the `type: plain` context condition, and
// every value (secrets) opened by the build's read alone. Plus the environment table and its grants.

type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
// The root's template with its route families' merged in, as the run synthesized it.
const resources = (await defaultStackTemplate()).Resources as Record<string, Resource>;

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Each function (by description) and the statements of its role. */
function functionsWithStatements(): { description: string; statements: Statement[] }[] {
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .map((fn) => {
      const role = JSON.stringify((fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt']?.[0]);
      const roleId = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt']?.[0] ?? '';
      // Inline policies of the role (infra/access/function-role.ts), and any policy resource attached to it.
      const inline = (
        (resources[roleId]?.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]
      ).flatMap((policy) => policy.PolicyDocument.Statement);
      const attached = Object.values(resources)
        .filter(
          (resource) =>
            resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(role),
        )
        .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
      const statements = [...inline, ...attached];
      return { description: String(fn.Properties.Description), statements };
    });
}

const onKey = (statement: Statement) => JSON.stringify(statement.Resource).includes('"EnvironmentKey"');
const actionsOf = (statement: Statement) => [statement.Action].flat();

const byHandler = (handler: string) => describeFunction(handler);

describe('the environment key', () => {
  it('is one customer-managed key with yearly rotation, kept when the stack goes or replaces it, its logical id pinned', () => {
    const keys = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::KMS::Key');
    expect(keys.map(([id]) => id)).toEqual(['EnvironmentKey']);
    const [, key] = keys[0] ?? [];
    expect(key?.Properties).toMatchObject({ EnableKeyRotation: true, PendingWindowInDays: 30 });
    expect([key?.DeletionPolicy, key?.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });

  it('lets only the build read and the log append (to mask secrets) decrypt every value; the list and PATCH decrypt plain values only', () => {
    const decrypting = functionsWithStatements()
      .map(({ description, statements }) => ({
        description,
        decrypt: statements.filter(
          (statement) => onKey(statement) && actionsOf(statement).includes('kms:Decrypt'),
        ),
      }))
      .filter(({ decrypt }) => decrypt.length > 0);
    const unconditional = decrypting.filter(({ decrypt }) =>
      decrypt.some((statement) => statement.Condition === undefined),
    );
    expect(unconditional.map(({ description }) => description).sort()).toEqual(
      [byHandler('get-build-env'), byHandler('append-deployment-logs')].sort(),
    );
    const plainOnly = decrypting.filter(({ decrypt }) =>
      decrypt.every((statement) => statement.Condition !== undefined),
    );
    expect(plainOnly.map(({ description }) => description).sort()).toEqual(
      [byHandler('list-environment'), byHandler('update-environment-variable')].sort(),
    );
    for (const { decrypt } of plainOnly) {
      expect(decrypt.map((statement) => statement.Condition)).toEqual([
        { StringEquals: { 'kms:EncryptionContext:type': 'plain' } },
      ]);
    }
  });

  it('lets exactly the rows that write values make data keys, and gives no function any other KMS action', () => {
    const all = functionsWithStatements();
    const generating = all
      .filter(({ statements }) =>
        statements.some(
          (statement) => onKey(statement) && actionsOf(statement).includes('kms:GenerateDataKey'),
        ),
      )
      .map(({ description }) => description);
    expect(generating.sort()).toEqual(
      ['create-environment-variable', 'replace-environment', 'update-environment-variable']
        .map(byHandler)
        .sort(),
    );
    const kmsActions = new Set(
      all
        .flatMap(({ statements }) => statements.flatMap(actionsOf))
        .filter((action) => action.startsWith('kms:')),
    );
    expect([...kmsActions].sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    // Every function with a KMS grant knows the key, and only those.
    const withKey = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function')
      .filter((fn) => JSON.stringify(fn.Properties.Environment ?? {}).includes('ENVIRONMENT_KEY_ARN'))
      .map((fn) => String(fn.Properties.Description));
    expect(withKey.sort()).toEqual(
      routes
        .filter((route) => route.kms?.length)
        .map((route) => byHandler(route.handler))
        .sort(),
    );
  });
});

describe('the environment table', () => {
  it("keeps users' data: on demand, point-in-time recovery, deletion protection, retained, streamed", () => {
    const table = resources.EnvironmentTable;
    expect(table?.Type).toBe('AWS::DynamoDB::Table');
    expect(table?.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'projectId', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    expect(table?.DeletionPolicy).toBe('Retain');
  });

  it('is granted to exactly the functions whose rows name it, with their actions; the purge only queries and deletes', () => {
    const touching = functionsWithStatements()
      .filter(({ statements }) =>
        statements.some((statement) => JSON.stringify(statement.Resource).includes('"EnvironmentTable"')),
      )
      .map(({ description, statements }) => ({
        description,
        actions: statements
          .filter((statement) => JSON.stringify(statement.Resource).includes('"EnvironmentTable"'))
          .flatMap(actionsOf)
          .filter((action) => action.startsWith('dynamodb:'))
          .sort(),
      }));
    // The actions each row or consumer row names on the table (infra/access/grants.ts): the one source.
    const namedOnEnvironment = (handler: string): string[] =>
      [
        ...new Set(
          functionGrants(handler)
            .filter((grant) => grant.service === 'dynamodb' && grant.table === 'environment')
            .flatMap((grant) => grant.actions),
        ),
      ].sort();
    const routeHandlers = [
      ...new Set(routes.filter((route) => route.tables.environment).map((route) => route.handler)),
    ];
    const consumerAreas: Record<string, string> = {
      'purge-project': 'projects',
      'auto-promote': 'deployments',
    };
    const expected = new Map<string, string[]>([
      ...routeHandlers.map((handler): [string, string[]] => [
        byHandler(handler),
        namedOnEnvironment(handler),
      ]),
      ...Object.entries(consumerAreas).map(([handler, area]): [string, string[]] => [
        `${area}: ${handler}`,
        namedOnEnvironment(handler),
      ]),
      // The fan-out reads the table's stream (its head items become project.env.updated).
      [
        'webhooks: webhook-fan-out',
        ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
      ],
      // So does the audit log's recorder (its head items carry who changed the variables).
      [
        'audit: record-audit-events',
        ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
      ],
    ]);
    expect(namedOnEnvironment('purge-project')).toEqual(['dynamodb:DeleteItem', 'dynamodb:Query']);
    expect(Object.fromEntries(touching.map(({ description, actions }) => [description, actions]))).toEqual(
      Object.fromEntries(expected),
    );
  });
});
