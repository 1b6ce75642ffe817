import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { functionGrants } from '#infra/access/grants.ts';
import * as enforcement from '#infra/local/iam/enforce.ts';
import { permissionsOf } from '#infra/local/iam/policy.ts';
import { startLocalSchedules } from '#infra/local/schedules.ts';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import { consumerHandlers } from '#shared/consumers.ts';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { actsInTeam, routes, rowsOf, takesIdempotencyKey } from '#shared/routes.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { BenchRequest } from '../bench/requests.ts';
import { requestFor } from '../bench/requests.ts';
import type { BenchSetup } from '../bench/setup.ts';
import { disposablesFor, makeBenchData } from '../bench/setup.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { overrideSettings } from '../support/settings.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Every function's grants, both ways: each route's happy path (the bench's one successful request per
// route, test/bench/requests.ts, acting in a shared team so that each reads the caller's membership)
// and each consumer's (the stream and queue work those requests cause) run under the local run's IAM (infra/local/iam), which notes each permission a call used and refuses
// what was not granted. The test fails on a call refused (granted too little: AWS would answer it
// with AccessDenied) and on a permission granted and never used (granted too much), except the few
// kept on purpose below, each with its reason.

type LocalQueue = import('#infra/local/webhook-queue.ts').LocalWebhookQueue;
type StreamPoller = import('#infra/local/stream-poller.ts').StreamPoller;
type Repeating = import('#infra/local/every.ts').Repeating;

/**
 * Permissions granted that the happy paths do not use, by function, and why each stays. Every entry
 * is a path a request or a record can take in AWS that this tour does not take.
 */
const KEPT_ON_PURPOSE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'get-build-env': {
    'dynamodb:GetItem projects':
      "a deployment made before targets were stored builds for its branch's target, read from its project",
  },
  'create-domain': {
    'dynamodb:GetItem domains':
      'a name held by a claim that lapsed unverified is read, to take it over from that claim (test/integration/domains.test.ts)',
  },
  'create-deployment': {
    'dynamodb:UpdateItem projects':
      "a project stored before its item carried its variables' head gets the copy at its first deployment (test/integration/variables-head-upgrade.test.ts)",
  },
  'auto-promote': {
    'dynamodb:UpdateItem projects':
      "it moves production only when the ready report's own move failed (test/integration/auto-promotion.test.ts runs that under these grants)",
    'dynamodb:PutItem environment': 'the history entry of that move, in the same transaction',
  },
  register: {
    'dynamodb:GetItem users':
      "a taken email is read, to tell the retry of one's own registration (its answer lost) from another's",
  },
  login: {
    'dynamodb:UpdateItem users':
      'a password hashed with weaker parameters than today is hashed again at its next login',
  },
};

let gateway: TestGateway;
let queue: LocalQueue;
let poller: StreamPoller;
let schedules: Repeating;
let receiver: WebhookReceiver;
let restoreSettings: () => void;
let data: BenchSetup;

/** What the bench's admin owns, in their personal team and the shared one: the records this file's poller takes. */
const ownedByTour = (record: DynamoDBRecord): boolean => {
  const owner = (record.dynamodb?.NewImage ?? record.dynamodb?.OldImage)?.ownerId?.S;
  return owner !== undefined && (owner === data?.ownerId || owner === data?.teamId);
};

/** A path of the versioned API in the tour's shared team. */
const inTeam = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}teamId=${data.teamId}`;

beforeAll(async () => {
  restoreSettings = overrideSettings({
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  receiver = await startReceiver();
  data = await makeBenchData(gateway.backendUrl, 1, 'shared');
  poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 50,
    accepts: ownedByTour,
  });
  // The scheduled functions (the custom domains' background checks), on a short period.
  schedules = await startLocalSchedules({ intervalMs: 50 });
}, 60_000);

afterAll(async () => {
  await schedules?.stop();
  await poller?.stop();
  await queue?.stop();
  await receiver?.close();
  await gateway?.close();
  restoreSettings();
});

/** Gives a project a plain and a secret variable, and a deployment (their snapshot) with a build log line. */
async function furnish(projectId: string): Promise<{ deploymentId: string; buildKey: string }> {
  const variables = await Promise.all(
    (['plain', 'secret'] as const).map((type) =>
      call(`${gateway.baseUrl}${inTeam(`/projects/${projectId}/env`)}`, {
        method: 'POST',
        key: data.adminKey,
        json: { key: `TOUR_${randomUUID().slice(0, 8).toUpperCase()}`, value: `${type} value`, type },
      }),
    ),
  );
  const deployment = await call(`${gateway.baseUrl}${inTeam('/deployments')}`, {
    method: 'POST',
    key: data.adminKey,
    json: { projectId },
  });
  const builder = await data.issueKey(undefined, ['build']);
  const log = await call(
    `${gateway.baseUrl}${inTeam(`/deployments/${(deployment.body as { id: string }).id}/logs`)}`,
    {
      method: 'POST',
      key: builder.apiKey,
      json: { lines: [{ text: 'tour: building' }, { text: 'tour: built' }] },
    },
  );
  expect([...variables.map(({ status }) => status), deployment.status, log.status]).toEqual([
    201, 201, 201, 201,
  ]);
  return { deploymentId: (deployment.body as { id: string }).id, buildKey: builder.apiKey };
}

/** Removes a project's item alone, as a DELETE does first, leaving the rest to the purge. */
async function removeProjectItem(projectId: string): Promise<void> {
  await db.send(
    new DeleteCommand({ TableName: tableName('projects'), Key: { ownerId: data.partition, id: projectId } }),
  );
}

/** Adds a custom domain to a project, and makes its background check due now (as a minute later). */
async function addDueDomain(projectId: string): Promise<void> {
  const name = `tour-${randomUUID().slice(0, 12)}.example.com`;
  const added = await call(`${gateway.baseUrl}${inTeam(`/projects/${projectId}/domains`)}`, {
    method: 'POST',
    key: data.adminKey,
    json: { name },
  });
  expect(added.status).toBe(201);
  await db.send(
    new UpdateCommand({
      TableName: tableName('domains'),
      Key: { pk: name },
      UpdateExpression: 'SET nextCheckAt = :now',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
    }),
  );
}

/** Waits until `ready` holds, polling; fails naming `what` after `timeoutMs`. */
async function eventually(what: string, ready: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('drives every route and consumer under its grants: nothing refused, nothing granted unused', async () => {
  // Every row acting in a team may record a refusal in its audit log (a 403, which no happy path
  // meets): the grant infra/access/grants.ts gives them all (AUDIT_RECORDING); the audit-log tests record
  // refusals under it.
  const keptForRefusals = (handler: string): Record<string, string> =>
    rowsOf(handler).some(actsInTeam)
      ? { 'dynamodb:PutItem auditEvents': 'a refusal (403) in a team is recorded in its audit log' }
      : {};

  // The admin's webhook points at this file's receiver: its deliveries are the queue consumer's work.
  const hook = await call(`${gateway.baseUrl}${inTeam('/webhooks')}`, {
    method: 'POST',
    key: data.adminKey,
    json: { url: receiver.url, events: ['*'] },
  });
  expect(hook.status).toBe(201);
  const webhookId = (hook.body as { webhook: { id: string } }).webhook.id;

  // Variables on the project most requests name: its list opens the plain one.
  await furnish(data.projectId);

  const answers: { route: string; status: number; expected: number[] }[] = [];
  const send = async (name: string, request: BenchRequest, headers: Record<string, string> = {}) => {
    const response = await call(`${gateway.backendUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(request.key === undefined ? {} : { key: request.key }),
      ...(request.body === undefined ? {} : { json: request.body }),
    });
    answers.push({ route: name, status: response.status, expected: request.expected });
  };
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const disposables = await disposablesFor(route, data, 0);
    // A project that is deleted has what projects have: its deployments, their logs, its variables.
    if (route.method === 'DELETE' && route.path === '/projects/{id}' && disposables.projectId)
      await furnish(disposables.projectId);
    const request = requestFor(route, { ...data, webhookId }, 0, disposables);
    // Every POST of the versioned API as clients that retry send it: with an Idempotency-Key.
    await send(name, request, takesIdempotencyKey(route) ? { 'Idempotency-Key': randomUUID() } : {});
    // And every keyed route as a stranger calls it: counted per source address, then 401.
    if (route.access === 'apiKey')
      await send(`${name} without a valid key`, { ...request, key: 'not-a-key', expected: [401] });
  }

  // Paths of the same functions that the bench's requests do not take: a build reading the secrets
  // it builds with, and a production deployment becoming ready (and production).
  const built = await furnish(data.projectId);
  await send('GET /deployments/{id}/build-env with secrets', {
    method: 'GET',
    path: `/v1${inTeam(`/deployments/${built.deploymentId}/build-env`)}`,
    key: built.buildKey,
    expected: [200],
  });
  for (const deploymentId of [built.deploymentId, (await furnish(data.projectId)).deploymentId]) {
    for (const status of ['building', 'ready'])
      await send(`POST /deployments/{id}/events ${status}`, {
        method: 'POST',
        path: `/v1${inTeam(`/deployments/${deploymentId}/events`)}`,
        key: data.adminKey,
        body: { status },
        expected: [200],
      });
  }

  // A redeploy reads the deployment it repeats; a change of a plain variable's targets alone shows its
  // value, opened again; a list of deployments by project checks the project.
  await send('POST /deployments redeploying', {
    method: 'POST',
    path: `/v1${inTeam('/deployments')}`,
    key: data.adminKey,
    body: { redeployOf: built.deploymentId },
    expected: [201],
  });
  const plain = await call(`${gateway.baseUrl}${inTeam(`/projects/${data.projectId}/env`)}`, {
    key: data.adminKey,
  });
  const plainId = (plain.body as { variables: { id: string; type: string }[] }).variables.find(
    (variable) => variable.type === 'plain',
  )?.id;
  await send('PATCH /projects/{id}/env/{envId} targets alone', {
    method: 'PATCH',
    path: `/v1${inTeam(`/projects/${data.projectId}/env/${plainId}`)}`,
    key: data.adminKey,
    body: { targets: ['preview'] },
    expected: [200],
  });
  await send('GET /deployments?projectId=', {
    method: 'GET',
    path: `/v1${inTeam(`/deployments?projectId=${data.projectId}`)}`,
    key: data.adminKey,
    expected: [200],
  });

  // In the admin's personal team, where the role is known without a read: the rows that read their
  // resource with the membership read it alone (a deployment made, read, redeployed), and a team's
  // own routes read the user's profile (the personal team's name and only member are its owner's).
  const personal = `team_${data.ownerId.slice('usr_'.length)}`;
  const asAdmin = (path: string, json?: unknown) =>
    call(`${gateway.baseUrl}${path}`, {
      key: data.adminKey,
      ...(json === undefined ? {} : { method: 'POST', json }),
    });
  const personalProject = ((await asAdmin('/projects', { name: 'personal' })).body as { id: string }).id;
  const personalDeployment = (
    (await asAdmin('/deployments', { projectId: personalProject })).body as { id: string }
  ).id;
  const inPersonalTeam: (Omit<BenchRequest, 'key' | 'expected'> & { expected?: number[] })[] = [
    { method: 'POST', path: '/v1/deployments', body: { projectId: personalProject }, expected: [201] },
    { method: 'POST', path: '/v1/deployments', body: { redeployOf: personalDeployment }, expected: [201] },
    { method: 'GET', path: `/v1/projects/${personalProject}` },
    { method: 'GET', path: `/v1/deployments/${personalDeployment}` },
    { method: 'GET', path: `/v1/teams/${personal}` },
    { method: 'PATCH', path: `/v1/teams/${personal}`, body: { name: 'Mine' } },
    { method: 'GET', path: `/v1/teams/${personal}/members` },
  ];
  for (const request of inPersonalTeam)
    await send(`${request.method} ${request.path} in the personal team`, {
      expected: [200],
      ...request,
      key: data.adminKey,
    });

  // A team token limited to the tour's project: its checks read what a request names (the
  // deployment's project, the listed projects) to keep it within its projects.
  const token = await call(`${gateway.baseUrl}/teams/${data.teamId}/tokens`, {
    method: 'POST',
    key: data.adminKey,
    json: {
      name: 'tour',
      scopes: ['read', 'write', 'build'],
      projectIds: [data.projectId],
      expiresInDays: 1,
    },
  });
  const tokenKey = (token.body as { apiKey: string }).apiKey;
  const [reported, canceled, building] = await Promise.all([
    data.newDeployment(),
    data.newDeployment(),
    data.newDeployment(),
  ]);
  const byToken: [string, Omit<BenchRequest, 'key' | 'expected'>][] = [
    ['GET /projects', { method: 'GET', path: '/v1/projects' }],
    [
      'POST /deployments/{id}/events',
      { method: 'POST', path: `/v1/deployments/${reported}/events`, body: { status: 'building' } },
    ],
    ['POST /deployments/{id}/cancel', { method: 'POST', path: `/v1/deployments/${canceled}/cancel` }],
    ['GET /deployments/{id}/build-env', { method: 'GET', path: `/v1/deployments/${building}/build-env` }],
  ];
  for (const [name, request] of byToken)
    await send(`${name} by a team token limited to projects`, { ...request, key: tokenKey, expected: [200] });

  // An owner who is removed leaves the team's count of owners (made one first); the first page of
  // the admin's teams, with room for a joined one beside the personal one, signs its next cursor.
  const secondOwner = await data.newMember();
  const member = `/v1/teams/${data.teamId}/members/${secondOwner}`;
  await send('PATCH /teams/{teamId}/members/{userId} to owner', {
    method: 'PATCH',
    path: member,
    key: data.adminKey,
    body: { role: 'owner' },
    expected: [200],
  });
  await send('DELETE /teams/{teamId}/members/{userId} an owner', {
    method: 'DELETE',
    path: member,
    key: data.adminKey,
    expected: [204],
  });
  await send('GET /teams a page of two', {
    method: 'GET',
    path: '/v1/teams?limit=2',
    key: data.adminKey,
    expected: [200],
  });

  // The lists again, a page of one, now that each has more to show: the next page's cursor is signed.
  for (const route of routes.filter((row) => row.secrets?.some((secret) => secret === 'cursorKey'))) {
    const disposables = { ...(await disposablesFor(route, data, 0)), deploymentId: built.deploymentId };
    const request = requestFor(route, { ...data, webhookId }, 0, disposables);
    const path = `${request.path}${request.path.includes('?') ? '&' : '?'}limit=1`;
    await send(`${route.method} ${route.path} a page of one`, { ...request, path });
  }

  // A project removed while it still had deployments and a domain (its DELETE ran out of time, and
  // the purge alone frees the names): the purge's work. Its domain is due: the background check's.
  const leftover = String(await data.newProject());
  await furnish(leftover);
  await addDueDomain(leftover);
  await addDueDomain(data.projectId);
  await removeProjectItem(leftover);
  // The consumers' work, caused by the requests above: a delivery, the deleted project's purge.
  const used = enforcement.permissionsUsed();
  await eventually('every consumer to run', () => consumerHandlers().every((handler) => used.has(handler)));
  // A deployment's log goes first, then the deployment; the project's variables in their own pass.
  await eventually('the purge of the removed project', () =>
    ['deploymentLogs', 'deployments', 'environment'].every((table) =>
      Boolean(used.get('purge-project')?.has(`dynamodb:DeleteItem ${table}`)),
    ),
  );
  await eventually('the purge of its domain', () =>
    Boolean(used.get('purge-project')?.has('dynamodb:DeleteItem domains')),
  );
  await eventually('a background check of a due domain', () =>
    Boolean(used.get('recheck-domains')?.has('dynamodb:UpdateItem domains')),
  );
  if (process.env.DUMP_GRANTS)
    console.log(JSON.stringify(Object.fromEntries([...used].map(([k, v]) => [k, [...v].sort()])), null, 1));
  await receiver.waitFor(1);
  await queue.drained();

  const functions = [...new Set([...routes.map((route) => route.handler), ...consumerHandlers()])];
  const grantedUnused = Object.fromEntries(
    functions
      .map((handler): [string, string[]] => {
        const kept = { ...keptForRefusals(handler), ...KEPT_ON_PURPOSE[handler] };
        const usedHere = used.get(handler) ?? new Set<string>();
        const unused = [...permissionsOf(functionGrants(handler))].filter(
          (permission) => !usedHere.has(permission) && !(permission in kept),
        );
        return [handler, unused];
      })
      .filter(([, unused]) => unused.length > 0),
  );
  // One comparison, so that a failure shows every drift at once.
  expect({
    failedRequests: answers.filter(({ status, expected }) => !expected.includes(status)),
    refused: enforcement.refusedCalls().map(({ functionName, action, message }) => ({
      functionName,
      action,
      resource: /on resource: (\S+)/.exec(message)?.[1],
    })),
    grantedUnused,
  }).toEqual({ failedRequests: [], refused: [], grantedUnused: {} });
}, 120_000);
