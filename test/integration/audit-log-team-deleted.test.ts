import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { auditPage, callAs, keyIdOf, requestIdOf, uniqueAgent } from '../support/audit.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { newPerson, newTeam } from '../support/teams.ts';

// A deleted team's audit log (issue 35): the API no longer reads it, but the event of the deletion is
// kept. It is written in the deletion's own transaction, not from a stream, so this file reads the
// store and runs no stream consumer.

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});

afterAll(async () => {
  await gateway?.close();
});

it('keeps the event of a deleted team, written with its deletion, where the API no longer reads it', async () => {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(gateway.baseUrl, owner);
  const agent = uniqueAgent();
  const deleted = await callAs(agent, `${gateway.baseUrl}/teams/${teamId}`, {
    method: 'DELETE',
    key: owner.key,
  });
  expect(deleted.status).toBe(204);
  expect((await auditPage(gateway.baseUrl, owner.key, teamId)).status).toBe(404);
  // Written in the deletion's transaction: there as soon as the answer is.
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName('auditEvents'),
      KeyConditionExpression: 'teamId = :team',
      FilterExpression: 'requestId = :request',
      ExpressionAttributeValues: { ':team': teamId, ':request': requestIdOf(deleted) },
    }),
  );
  expect(Items).toEqual([
    expect.objectContaining({
      teamId,
      action: 'team.deleted',
      outcome: 'success',
      actor: { type: 'user', id: owner.userId, keyId: await keyIdOf(gateway.baseUrl, owner.key) },
      target: { type: 'team', id: teamId },
      ip: '127.0.0.1',
      userAgent: agent,
    }),
  ]);
});
