import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import { streamConsumers } from '#shared/consumers.ts';
import { db } from '#shared/db/client.ts';
import { tableName, tables } from '#shared/db/tables.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import type { JsonResponse, RequestOptions } from '../support/http.ts';
import { call } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller, ownedByThisRun } from '../support/users.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Secrets are write-only. A scenario that sets, changes, replaces, deploys and builds with secrets
// (and fails on purpose along the way) is searched for their values: every response body, every log
// line, every webhook delivery and every raw item of every table. They are found in `build-env`
// answers only. Logging is on for this suite (the run keeps it silent): LOG_LEVEL is read when the
// service's modules load, so they load after it is set.

let gateway: TestGateway;
let stop: () => Promise<void>;
let restoreSettings: () => void;
let drained: () => Promise<void>;
let receiver: WebhookReceiver;

beforeAll(async () => {
  restoreSettings = overrideSettings({
    LOG_LEVEL: 'info',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  gateway = await startGateway();
  const queue = startLocalWebhookQueue(deliverySettings());
  const poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    // Not the audit log's recorder: its seven streams would double what this file asks of DynamoDB Local.
    consumers: streamConsumers.filter(({ handler }) => handler !== 'record-audit-events'),
    accepts: ownedByThisRun,
  });
  drained = () => queue.drained();
  receiver = await startReceiver([204]);
  stop = async () => {
    await poller.stop();
    await queue.stop();
    await receiver.close();
    await gateway.close();
  };
});
afterAll(async () => {
  await stop();
  restoreSettings();
});

const SECRETS = ['sv-first-7Qx2', 'sv-second-R8pz', 'sv-replaced-Kd41', 'sv-refused-Zt09', 'sv-late-Wm33'];

async function scanAll(): Promise<string> {
  const dumps: string[] = [];
  for (const key of Object.keys(tables) as (keyof typeof tables)[]) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new ScanCommand({ TableName: tableName(key), ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      dumps.push(JSON.stringify(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return dumps.join('\n');
}

it('finds no secret value anywhere but in build-env answers', async () => {
  const { key } = await newCaller();
  const answers: { url: string; response: JsonResponse }[] = [];
  const send = async (url: string, options: RequestOptions = {}) => {
    const response = await call(url, options);
    answers.push({ url, response });
    return response;
  };
  const base = gateway.baseUrl;
  const { lines } = await captureLogs(async () => {
    await send(`${base}/webhooks`, { method: 'POST', key, json: { url: receiver.url, events: ['*'] } });
    const project = (await send(`${base}/projects`, { method: 'POST', key, json: { name: 'web' } })).body as {
      id: string;
    };
    const env = `${base}/projects/${project.id}/env`;
    const secret = (
      await send(env, {
        method: 'POST',
        key,
        headers: { 'Idempotency-Key': `scan-${project.id}` },
        json: { key: 'TOKEN', value: SECRETS[0], type: 'secret', targets: ['production'] },
      })
    ).body as { id: string };
    await send(env, {
      method: 'POST',
      key,
      headers: { 'Idempotency-Key': `scan-${project.id}` },
      json: { key: 'TOKEN', value: SECRETS[0], type: 'secret', targets: ['production'] },
    });
    await send(env, { method: 'POST', key, json: { key: 'PLAIN', value: 'plain-1' } });
    await send(`${env}/${secret.id}`, { method: 'PATCH', key, json: { value: SECRETS[1] } });
    // Refused on purpose: an overlap, a bad key, a type change, each carrying a secret.
    await send(env, { method: 'POST', key, json: { key: 'TOKEN', value: SECRETS[3], type: 'secret' } });
    await send(env, { method: 'POST', key, json: { key: '9BAD', value: SECRETS[3], type: 'secret' } });
    await send(`${env}/${secret.id}`, { method: 'PATCH', key, json: { value: SECRETS[3], type: 'plain' } });
    await send(env, {
      method: 'PUT',
      key,
      json: {
        variables: [
          { key: 'X', value: SECRETS[3], type: 'secret' },
          { key: 'X', value: SECRETS[3] },
        ],
      },
    });
    await send(env, { key });
    const deployment = (
      await send(`${base}/deployments`, { method: 'POST', key, json: { projectId: project.id } })
    ).body as { id: string };
    await send(env, {
      method: 'PUT',
      key,
      json: {
        variables: [
          { key: 'TOKEN', value: SECRETS[2], type: 'secret' },
          { key: 'PLAIN', value: 'plain-2', targets: ['preview'] },
        ],
      },
    });
    await send(env, { key });
    const second = (
      await send(`${base}/deployments`, { method: 'POST', key, json: { projectId: project.id } })
    ).body as { id: string };
    const build = (
      (await send(`${base}/keys`, { method: 'POST', key, json: { name: 'ci', scopes: ['build'] } })).body as {
        apiKey: string;
      }
    ).apiKey;
    for (const id of [deployment.id, second.id]) {
      await send(`${base}/deployments/${id}/build-env`, { key: build });
      await send(`${base}/deployments/${id}/events`, {
        method: 'POST',
        key: build,
        json: { status: 'building' },
      });
      await send(`${base}/deployments/${id}/build-env`, { key: build });
      await send(`${base}/deployments/${id}/events`, { key: build });
      await send(`${base}/deployments/${id}`, { key: build });
      // A build that prints the secrets it has (its snapshot's, the project's now): its log masks
      // them before they are stored. The first deployment was made with the second value, the other
      // after the replace.
      const printed = id === deployment.id ? [SECRETS[1], SECRETS[2]] : [SECRETS[2]];
      await send(`${base}/deployments/${id}/logs`, {
        method: 'POST',
        key: build,
        headers: { 'Idempotency-Key': `log-${id}` },
        json: { lines: printed.map((value) => ({ text: `TOKEN=${value}`, stream: 'stderr' })) },
      });
      await send(`${base}/deployments/${id}/logs`, { key: build });
    }
    await send(`${base}/deployments/${deployment.id}/events`, {
      method: 'POST',
      key: build,
      json: { status: 'ready' },
    });
    await send(`${base}/deployments/${deployment.id}/build-env`, { key: build });
    // Its log followed to the end, as a stream.
    await send(`${base}/deployments/${deployment.id}/logs?follow=1`, { key });
    await send(`${env}/${secret.id}`, { method: 'PATCH', key, json: { value: SECRETS[4] } });
    await receiver.waitFor(8);
    await drained();
    // Give the stream poller a round for the last changes, then let their deliveries finish.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await drained();
  });

  const isBuildEnv = (url: string) => url.endsWith('/build-env');
  const found = (text: string) => SECRETS.filter((value) => text.includes(value));

  // The build read them: the scan below is not vacuous.
  const buildAnswers = answers.filter(({ url }) => isBuildEnv(url)).map(({ response }) => response.text);
  expect(found(buildAnswers.join('\n')).sort()).toEqual([SECRETS[1], SECRETS[2]].sort());

  expect(
    answers.filter(({ url }) => !isBuildEnv(url)).flatMap(({ response }) => found(response.text)),
  ).toEqual([]);
  // The build's log was read and followed, masked: the search of those answers is not vacuous either.
  const logAnswers = answers
    .filter(({ url }) => /\/logs(\?|$)/.test(url))
    .map(({ response }) => response.text);
  expect(logAnswers.filter((text) => text.includes('TOKEN=***'))).toHaveLength(3);
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.flatMap(found)).toEqual([]);
  const deliveries = receiver.received.map((delivery) => delivery.body);
  expect(deliveries.some((body) => body.includes('"project.env.updated"'))).toBe(true);
  expect(deliveries.flatMap(found)).toEqual([]);
  expect(found(await scanAll())).toEqual([]);
});

it('tells subscribers which keys and targets changed, never a value', async () => {
  const { key } = await newCaller();
  const base = gateway.baseUrl;
  const own = await startReceiver([204]);
  // Quiet: the first test searched the log lines.
  await captureLogs(async () => {
    try {
      await call(`${base}/webhooks`, {
        method: 'POST',
        key,
        json: { url: own.url, events: ['project.env.updated'] },
      });
      const project = (await call(`${base}/projects`, { method: 'POST', key, json: { name: 'web' } }))
        .body as {
        id: string;
      };
      const env = `${base}/projects/${project.id}/env`;
      await call(env, {
        method: 'POST',
        key,
        json: { key: 'TOKEN', value: 'tok-hidden', type: 'secret', targets: ['preview'] },
      });
      await call(env, {
        method: 'PUT',
        key,
        json: { variables: [{ key: 'A', value: 'a-hidden', targets: ['production'] }] },
      });
      const bodies = (await own.waitFor(2))
        .map((delivery) => JSON.parse(delivery.body) as { type: string; data: { change: string } })
        .sort((a, b) => a.data.change.localeCompare(b.data.change));
      expect(bodies.map((body) => body.type)).toEqual(['project.env.updated', 'project.env.updated']);
      expect(bodies.map((body) => body.data)).toEqual([
        {
          projectId: project.id,
          change: 'created',
          variables: [{ key: 'TOKEN', targets: ['preview'], type: 'secret' }],
          at: expect.any(String),
        },
        {
          projectId: project.id,
          change: 'replaced',
          variables: [{ key: 'A', targets: ['production'], type: 'plain' }],
          at: expect.any(String),
        },
      ]);
    } finally {
      await own.close();
    }
  });
});
