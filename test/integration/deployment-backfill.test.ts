import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { backfillDeployments } from '#infra/local/backfill-deployments.ts';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// A `.data` directory kept from an older version: its deployments carry the attributes the
// per-filter list indexes were keyed on. Nothing needs them now; npm start removes them once.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

describe('deployments written by an older version', () => {
  it('are in every list before and after the backfill, which removes their obsolete attributes', async () => {
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
    const obsolete = {
      projectStatus: `${projectId}#queued`,
      projectBranch: `${projectId}#main`,
      projectBranchStatus: `${projectId}#queued#main`,
      ownerStatus: `${userId}#queued`,
      ownerBranch: `${userId}#main`,
      ownerBranchStatus: `${userId}#queued#main`,
      activeStatus: 'queued',
    };
    const storedKey = { ownerId: userId, id: old.id };
    // Stored before targets were: shown as a preview (shared/db/deployments/deployments.ts).
    const shown = { ...old, target: 'preview' };
    await db.send(
      new PutCommand({ TableName: tableName('deployments'), Item: { ownerId: userId, ...old, ...obsolete } }),
    );
    const filtered = () =>
      call(`${gateway.baseUrl}/projects/${projectId}/deployments?status=queued&branch=main`, { key });
    expect((await filtered()).body).toEqual({ deployments: [shown], nextCursor: null });

    expect(await backfillDeployments()).toBeGreaterThanOrEqual(1);

    const { Item } = await db.send(new GetCommand({ TableName: tableName('deployments'), Key: storedKey }));
    expect(Item).toEqual({ ownerId: userId, ...old });
    expect((await filtered()).body).toEqual({ deployments: [shown], nextCursor: null });
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
