import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { type StreamPoller, startStreamPoller } from '#infra/local/stream-poller.ts';
import { streamConsumers } from '#shared/consumers.ts';
import { auditScope } from '#shared/db/audit/scope.ts';
import { onEachStoreClients } from '#shared/db/client.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';

// "Never missing" (issue 35): a change whose write succeeded is in the team's audit log even when
// everything after that write fails, the function dying before it can answer. Here the store's
// client plays the dying function for the requests this file marks (its User-Agent): the call that
// carries the change succeeds in DynamoDB, then it and every call after it in that invocation fail.
// The client sees a 500; the change happened; its event is there, with the 500's request id. A
// refusal whose recording fails is still a 403.

/** The requests whose function "dies" after the change's write, by their User-Agent. */
const DYING = `dying-function-${randomUUID()}`;
/** The requests whose refusal cannot be recorded. */
const UNRECORDABLE = `unrecordable-refusal-${randomUUID()}`;

let gateway: TestGateway;
let poller: StreamPoller;

/** Only this file's stamped records: other files' events are theirs to record. */
const ownRecord = (record: DynamoDBRecord): boolean => {
  const userAgent = record.dynamodb?.NewImage?.audit?.M?.userAgent?.S;
  return userAgent === DYING || userAgent === UNRECORDABLE;
};

beforeAll(async () => {
  // The function's death: once the change's write went through, nothing in that invocation works.
  const dead = new WeakSet<object>();
  onEachStoreClients(({ db }) =>
    db.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Item?: { userAgent?: unknown } };
        if (input.Item?.userAgent === UNRECORDABLE) throw new Error('the audit table is unreachable');
        const scope = auditScope();
        if (!scope || scope.stamp?.userAgent !== DYING) return next(args);
        if (dead.has(scope)) throw new Error('the function is dead');
        const result = await next(args);
        if (!scope.carried) return result;
        dead.add(scope);
        throw new Error('the function died after the change was written');
      },
      { step: 'initialize', name: 'dyingFunction', priority: 'low' },
    ),
  );
  gateway = await startGateway();
  poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 200,
    consumers: streamConsumers.filter(({ handler }) => handler === 'record-audit-events'),
    accepts: ownRecord,
  });
});
afterAll(async () => {
  await poller.stop();
  await gateway.close();
});

interface AuditEvent {
  action: string;
  outcome: string;
  requestId: string;
  actor: { type: string; id: string };
  target: { type: string; id: string };
  changes?: Record<string, { from: unknown; to: unknown }>;
}

async function eventsOf(teamId: string, key: string): Promise<AuditEvent[]> {
  const listed = await call(`${gateway.baseUrl}/teams/${teamId}/audit-events?limit=100`, { key });
  expect(listed.status).toBe(200);
  return (listed.body as { events: AuditEvent[] }).events;
}

/** The team's events once one for `requestId` is there (the stream's consumer runs in the background). */
async function eventFor(teamId: string, key: string, requestId: string): Promise<AuditEvent[]> {
  for (let round = 0; round < 200; round++) {
    const found = (await eventsOf(teamId, key)).filter((event) => event.requestId === requestId);
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

const send = (method: string, path: string, key: string, userAgent: string, json?: unknown) =>
  call(`${gateway.baseUrl}${path}`, {
    method,
    key,
    headers: { 'User-Agent': userAgent },
    ...(json === undefined ? {} : { json }),
  });

it('keeps the event of a change written through its stream, though the function died before answering', async () => {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(gateway.baseUrl, owner);
  const created = await call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
    method: 'POST',
    key: owner.key,
    json: { name: 'before' },
  });
  const projectId = (created.body as { id: string }).id;

  const renamed = await send('PATCH', `/projects/${projectId}?teamId=${teamId}`, owner.key, DYING, {
    name: 'after',
  });
  expect(renamed.status).toBe(500);
  const requestId = renamed.headers.get('x-request-id') ?? '';
  // The change happened ...
  const read = await call(`${gateway.baseUrl}/projects/${projectId}?teamId=${teamId}`, { key: owner.key });
  expect((read.body as { name: string }).name).toBe('after');
  // ... and is in the log, once, as what it was.
  expect(await eventFor(teamId, owner.key, requestId)).toEqual([
    expect.objectContaining({
      action: 'project.updated',
      outcome: 'success',
      actor: expect.objectContaining({ type: 'user', id: owner.userId }),
      target: { type: 'project', id: projectId },
      changes: { name: { from: 'before', to: 'after' } },
    }),
  ]);
});

it('keeps the event of a delete, written in its own transaction, though the function died after it', async () => {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(gateway.baseUrl, owner);
  const created = await call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
    method: 'POST',
    key: owner.key,
    json: { name: 'doomed' },
  });
  const projectId = (created.body as { id: string }).id;

  const deleted = await send('DELETE', `/projects/${projectId}?teamId=${teamId}`, owner.key, DYING);
  expect(deleted.status).toBe(500);
  const read = await call(`${gateway.baseUrl}/projects/${projectId}?teamId=${teamId}`, { key: owner.key });
  expect(read.status).toBe(404);
  // Committed with the delete: there at once, no stream to wait for.
  const requestId = deleted.headers.get('x-request-id') ?? '';
  expect((await eventsOf(teamId, owner.key)).filter((event) => event.requestId === requestId)).toEqual([
    expect.objectContaining({ action: 'project.deleted', target: { type: 'project', id: projectId } }),
  ]);
});

it('answers a refusal 403 even when it cannot be recorded', async () => {
  const owner = await newPerson('Owner');
  const teamId = await newTeam(gateway.baseUrl, owner);
  const viewer = await newPerson('Viewer');
  await join(gateway.baseUrl, teamId, owner, viewer, 'viewer');

  const refused = await send('POST', `/projects?teamId=${teamId}`, viewer.key, UNRECORDABLE, { name: 'no' });
  expect(refused.status).toBe(403);
  expect((refused.body as { error: string }).error).toBe('forbidden');
  const requestId = refused.headers.get('x-request-id') ?? '';
  expect((await eventsOf(teamId, owner.key)).filter((event) => event.requestId === requestId)).toEqual([]);
});
