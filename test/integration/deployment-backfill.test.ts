import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { backfillDeployments } from '../../infra/local/backfill-deployments.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/tables.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// A `.data` directory kept from before the lifecycle: its deployments were written without the
// attributes the list indexes are keyed on. npm start backfills them once.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

describe('deployments written by an older version', () => {
  it('join the filtered lists after the backfill, with a history that starts at their creation', async () => {
    const { key, userId } = await newCaller();
    const created = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (created.body as { id: string }).id;
    const old = {
      id: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M',
      projectId,
      branch: 'main',
      status: 'queued',
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
    };
    await db.send(new PutCommand({ TableName: tableName('deployments'), Item: { ownerId: userId, ...old } }));
    const filtered = () => call(`${gateway.baseUrl}/deployments?status=queued&branch=main`, { key });
    expect((await filtered()).body).toEqual({ deployments: [], nextCursor: null });

    expect(await backfillDeployments()).toBeGreaterThanOrEqual(1);

    expect((await filtered()).body).toEqual({ deployments: [old], nextCursor: null });
    expect((await call(`${gateway.baseUrl}/deployments/${old.id}/events`, { key })).body).toEqual({
      events: [{ status: 'queued', at: old.createdAt }],
    });
    const building = await call(`${gateway.baseUrl}/deployments/${old.id}/events`, {
      method: 'POST',
      key,
      json: { status: 'building' },
    });
    expect(building.status).toBe(200);
    expect((await call(`${gateway.baseUrl}/deployments/${old.id}/events`, { key })).body).toMatchObject({
      events: [{ status: 'queued', at: old.createdAt }, { status: 'building' }],
    });
    expect(await backfillDeployments()).toBe(0);
  });
});
