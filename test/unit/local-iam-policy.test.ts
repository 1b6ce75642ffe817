import { grantsOf } from '#infra/access/grants.ts';
import { allowingPermission, permissionsOf } from '#infra/local/iam/policy.ts';
import { tableName } from '#shared/db/tables.ts';
import type { AccessRequest } from '#shared/runtime/access-check.ts';

// IAM's decision as the local run makes it, on grants written the way rows write them.

const grants = grantsOf({
  tables: { deployments: ['GetItem', 'Query:byProject'] },
  kms: ['decryptPlain'],
  secrets: ['cursorKey'],
  queues: ['webhookDeliveries'],
});

const table = (action: string, index?: string): AccessRequest => ({
  action: `dynamodb:${action}`,
  resource: { service: 'dynamodb', table: tableName('deployments'), ...(index ? { index } : {}) },
});
const decrypt = (type: string): AccessRequest => ({
  action: 'kms:Decrypt',
  resource: { service: 'kms' },
  conditionKeys: { 'kms:EncryptionContext:type': type },
});

describe('the local stand-in for IAM', () => {
  it('allows the actions a row names on its table, and an index query only on the index it names', () => {
    expect({
      get: allowingPermission(grants, table('GetItem')),
      queryIndex: allowingPermission(grants, table('Query', 'byProject')),
      queryTable: allowingPermission(grants, table('Query')),
      put: allowingPermission(grants, table('PutItem')),
      otherIndex: allowingPermission(grants, table('Query', 'byOwnerStatus')),
    }).toEqual({
      get: 'dynamodb:GetItem deployments',
      queryIndex: 'dynamodb:Query deployments/index/byProject',
      queryTable: undefined,
      put: undefined,
      otherIndex: undefined,
    });
  });

  it("holds a KMS grant's encryption-context condition: plain values open, secrets do not", () => {
    expect([
      allowingPermission(grants, decrypt('plain')),
      allowingPermission(grants, decrypt('secret')),
    ]).toEqual(['kms:Decrypt environment-key if kms:EncryptionContext:type=plain', undefined]);
  });

  it('allows the secrets and queues a row names, and no other', () => {
    const secret = (name: string): AccessRequest => ({
      action: 'secretsmanager:GetSecretValue',
      resource: { service: 'secretsmanager', secret: name },
    });
    expect([
      allowingPermission(grants, secret('cursorKey')),
      allowingPermission(grants, secret('keySigningSeed')),
      allowingPermission(grants, {
        action: 'sqs:SendMessage',
        resource: { service: 'sqs', queue: 'webhookDeliveries' },
      }),
    ]).toEqual(['secretsmanager:GetSecretValue cursorKey', undefined, 'sqs:SendMessage webhookDeliveries']);
  });

  it('names every permission granted the way it names one used', () => {
    expect([...permissionsOf(grants)].sort()).toEqual([
      'dynamodb:GetItem deployments',
      'dynamodb:Query deployments/index/byProject',
      'kms:Decrypt environment-key if kms:EncryptionContext:type=plain',
      'secretsmanager:GetSecretValue cursorKey',
      'sqs:SendMessage webhookDeliveries',
    ]);
  });
});
