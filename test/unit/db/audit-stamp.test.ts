import type { AuditScope } from '#shared/db/audit/scope.ts';
import { stampedInput } from '#shared/db/audit/stamp.ts';
import { tables } from '#shared/db/tables.ts';
import type { AuditStamp } from '#shared/model/audit.ts';

// How a change's write carries its audit event (shared/db/audit/stamp.ts): the write of the item its
// action names is stamped (its stream record makes the event), a delete of it carries the event in
// its transaction, and every other update of a streamed table drops a stamp an earlier change left.

for (const key of Object.keys(tables) as (keyof typeof tables)[]) {
  process.env[tables[key].envVar] = `test-${key}`;
}

const stamp = (action: string, teamId: string | null = 'team_A'): AuditStamp => ({
  id: 'aud_01JD8Z6D7E8F9G0H1J2K3M4N5P',
  at: '2026-11-25T09:15:00.000Z',
  expiresAt: 1_771_924_500,
  action,
  ...(teamId === null ? {} : { teamId }),
  actor: { type: 'user', id: 'usr_1', keyId: 'key_1' },
  requestId: 'req-1',
  ip: '203.0.113.7',
  userAgent: 'cli/1',
});

const scopeOf = (action: string, teamId: string | null = 'team_A'): AuditScope => ({
  stamp: stamp(action, teamId),
  carried: false,
});

describe('the audit stamp', () => {
  it("stamps the put of the change's own item, and says the event is certain", () => {
    const scope = scopeOf('project.created');
    const item = { ownerId: 'usr_1', id: 'prj_1', name: 'web' };
    const sent = stampedInput('PutItem', { TableName: 'test-projects', Item: item }, scope);
    expect(sent.Item).toEqual({ ...item, audit: stamp('project.created') });
    expect(scope.carried).toBe(true);
  });

  it('leaves the puts of other items alone (the same change writing more than its item)', () => {
    const scope = scopeOf('deployment.created');
    const input = { TableName: 'test-projects', Item: { ownerId: 'usr_1', id: 'prj_1' } };
    expect(stampedInput('PutItem', input, scope)).toEqual(input);
    expect(scope.carried).toBe(false);
  });

  it("adds the stamp to an update's SET clause, or the clause itself", () => {
    const key = { ownerId: 'usr_1', id: 'prj_1' };
    const withSet = stampedInput(
      'UpdateItem',
      {
        TableName: 'test-projects',
        Key: key,
        UpdateExpression: 'SET #s0 = :s0 REMOVE #r0',
        ExpressionAttributeNames: { '#s0': 'name', '#r0': 'repository' },
        ExpressionAttributeValues: { ':s0': 'web' },
      },
      scopeOf('project.updated'),
    );
    expect(withSet.UpdateExpression).toBe('SET #auditStamp = :auditStamp, #s0 = :s0 REMOVE #r0');
    expect(withSet.ExpressionAttributeNames).toEqual({
      '#s0': 'name',
      '#r0': 'repository',
      '#auditStamp': 'audit',
    });
    expect(withSet.ExpressionAttributeValues).toEqual({
      ':s0': 'web',
      ':auditStamp': stamp('project.updated'),
    });
    const addOnly = stampedInput(
      'UpdateItem',
      {
        TableName: 'test-projects',
        Key: key,
        UpdateExpression: 'ADD #n :one',
        ExpressionAttributeNames: { '#n': 'n' },
      },
      scopeOf('project.updated'),
    );
    expect(addOnly.UpdateExpression).toBe('ADD #n :one SET #auditStamp = :auditStamp');
  });

  it('removes a stamp left by an earlier change from any other update of a streamed table', () => {
    const counting = stampedInput(
      'UpdateItem',
      {
        TableName: 'test-apiKeys',
        Key: { keyHash: 'h' },
        UpdateExpression: 'SET #count = #count + :one REMOVE #x',
      },
      undefined,
    );
    expect(counting.UpdateExpression).toBe('SET #count = #count + :one REMOVE #auditStamp, #x');
    expect(counting.ExpressionAttributeNames).toEqual({ '#auditStamp': 'audit' });
  });

  it('touches no write of a table the audit log does not read', () => {
    const input = { TableName: 'test-idempotency', Key: { id: 'x' }, UpdateExpression: 'SET a = :a' };
    expect(stampedInput('UpdateItem', input, scopeOf('project.created'))).toEqual(input);
  });

  it("puts a delete's event in its transaction, naming the team the item belongs to", () => {
    // A row about no one team leaves the team to the item.
    const scope = scopeOf('member.removed', null);
    const sent = stampedInput(
      'TransactWriteItems',
      {
        TransactItems: [
          { Delete: { TableName: 'test-teams', Key: { pk: 'team_B', sk: 'member#usr_2' } } },
          {
            Update: {
              TableName: 'test-teams',
              Key: { pk: 'team_B', sk: 'team' },
              UpdateExpression: 'ADD owners :m',
            },
          },
        ],
      },
      scope,
    );
    const items = sent.TransactItems as Record<string, Record<string, unknown>>[];
    expect(items).toHaveLength(3);
    expect(items[2]?.Put).toEqual({
      TableName: 'test-auditEvents',
      Item: expect.objectContaining({
        id: 'aud_01JD8Z6D7E8F9G0H1J2K3M4N5P',
        teamId: 'team_B',
        action: 'member.removed',
        outcome: 'success',
        target: { type: 'member', id: 'usr_2' },
        requestId: 'req-1',
      }),
    });
    // The team's own item, written in the same change, loses any stamp it had.
    expect(items[1]?.Update?.UpdateExpression).toBe('ADD owners :m REMOVE #auditStamp');
    expect(scope.carried).toBe(true);
  });

  it('refuses a lone delete of a change’s item: it could not carry its event', () => {
    expect(() =>
      stampedInput(
        'DeleteItem',
        { TableName: 'test-projects', Key: { ownerId: 'usr_1', id: 'prj_1' } },
        scopeOf('project.deleted'),
      ),
    ).toThrow(/made in a transaction/);
  });
});
