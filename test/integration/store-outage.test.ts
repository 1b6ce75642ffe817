import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamoDbLocal, freePort, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { createTablesOf } from '../support/own-tables.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// This suite runs its own DynamoDB Local, on disk so that it can be stopped and started again
// under a running gateway, and loads the service only after pointing it there.

let dynamo: DynamoDbLocal;
let gateway: TestGateway;
let key: string;
const dataDir = mkdtempSync(join(tmpdir(), 'platform-outage-'));
let restoreSettings: () => void;

beforeAll(async () => {
  dynamo = await startDynamoDbLocal({ port: await freePort(), dataDir });
  await createTablesOf(process.env, dynamo.endpoint);
  restoreSettings = overrideSettings({ DYNAMODB_ENDPOINT: dynamo.endpoint });
  gateway = await startGateway();
  ({ key } = await newCaller());
}, 60_000);

afterAll(async () => {
  await gateway.close();
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
  restoreSettings();
});

const health = () => call(`${gateway.backendUrl}/health`);
const projects = () => call(`${gateway.baseUrl}/projects`, { key });

async function timed<T>(request: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await request();
  return { result, ms: Date.now() - started };
}

describe('when DynamoDB stops answering and comes back', () => {
  it('health turns into a fast 503, other routes into the contract 500, and both recover', async () => {
    expect((await health()).status).toBe(200);
    expect((await projects()).status).toBe(200);

    await dynamo.stop();

    const down = await timed(health);
    expect(down.result.status).toBe(503);
    expect(down.result.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    expect(down.ms).toBeLessThan(2_500);

    const { result: failed, lines } = await captureLogs(projects);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
    expect(failed.headers.get('x-request-id')).toBeTruthy();
    expect(rateLimitOf(failed)).toMatchObject({ limit: 100, remaining: 0 });
    // The cause goes to the log, under the request id the client was given.
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.level === 'error');
    expect(logged).toMatchObject({
      message: 'unhandled error',
      requestId: failed.headers.get('x-request-id'),
      error: { message: expect.stringContaining('ECONNREFUSED') },
    });

    dynamo = await startDynamoDbLocal({ port: dynamo.port, dataDir });

    expect((await health()).status).toBe(200);
    const recovered = await projects();
    expect(recovered.status).toBe(200);
    expect(recovered.body).toEqual({ projects: [], nextCursor: null });
  }, 60_000);
});
