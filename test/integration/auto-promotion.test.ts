import { jest } from '@jest/globals';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { streamConsumers } from '#shared/consumers.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newDeployment } from '../support/resources.ts';
import {
  type ResponseDroppingProxy,
  startResponseDroppingProxy,
} from '../support/response-dropping-proxy.ts';
import { overrideSettings } from '../support/settings.ts';
import * as users from '../support/users.ts';
import { newCaller } from '../support/users.ts';

// Automatic promotion that fails at first (issue 38, item 4). The store refuses every transaction for
// a while (a proxy in front of DynamoDB Local answers them 500): the report's own attempt to move
// production fails, and so does the first attempt of the deployments stream's consumer; once the
// store answers again, the stream's retry makes the move, once.

type StreamPoller = import('#infra/local/stream-poller.ts').StreamPoller;

/** DynamoDB Local itself: the proxy's upstream, and where the poller reads the streams. */
const store = process.env.DYNAMODB_ENDPOINT ?? '';
let proxy: ResponseDroppingProxy;
let gateway: TestGateway;
let poller: StreamPoller;
let restoreSettings: () => void;

beforeAll(async () => {
  proxy = await startResponseDroppingProxy(store);
  restoreSettings = overrideSettings({ DYNAMODB_ENDPOINT: proxy.url });
  // Imported only now: the store's client reads its endpoint when it loads.
  gateway = await startGateway();
  // The streams are read from the store itself; the consumer's own calls go through the proxy.
  poller = await startStreamPoller(store, {
    intervalMs: 100,
    consumers: streamConsumers.filter(({ handler }) => handler === 'auto-promote'),
    accepts: users.ownedByThisRun,
  });
});
afterAll(async () => {
  await poller.stop();
  await gateway.close();
  await proxy.close();
  restoreSettings();
});

const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let round = 0; ; round++) {
    const value = await read();
    if (done(value) || round >= 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

it('is made by the stream when the report could not make it, exactly once', async () => {
  const { key } = await newCaller();
  const { id, projectId } = await newDeployment(gateway.baseUrl, key);
  const project = { id: projectId };
  const report = (status: string) =>
    call(`${gateway.baseUrl}/deployments/${id}/events`, { method: 'POST', key, json: { status } });
  expect((await report('building')).status).toBe(200);

  const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    proxy.failing('TransactWriteItems', true);
    expect((await report('ready')).status).toBe(200);
    const afterReport = proxy.seen('TransactWriteItems').failed;
    // The consumer's first attempt fails too (the stream will hand the record over again).
    await eventually(
      async () => proxy.seen('TransactWriteItems').failed,
      (failed) => failed > afterReport,
    );
    expect((await call(`${gateway.baseUrl}/projects/${project.id}`, { key })).body).toMatchObject({
      production: null,
    });
  } finally {
    proxy.failing('TransactWriteItems', false);
    logged.mockRestore();
  }

  const promoted = await eventually(
    async () =>
      (await call(`${gateway.baseUrl}/projects/${project.id}`, { key })).body as { production: unknown },
    (body) => body.production !== null,
  );
  expect(promoted.production).toMatchObject({ deploymentId: id, reason: 'auto' });
  // Handed over again, or seen again by later rounds: still one move.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const history = await call(`${gateway.baseUrl}/projects/${project.id}/production-history`, { key });
  expect((history.body as { moves: { deploymentId: string; reason: string }[] }).moves).toEqual([
    expect.objectContaining({ deploymentId: id, reason: 'auto', previousDeploymentId: null }),
  ]);
});
