import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, storeClients } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { credentialOf } from '#shared/http/idempotency/idempotent.ts';
import { recordIdOf } from '#shared/http/idempotency/sealed-response.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../support/clock.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';
import { newCaller } from '../support/users.ts';

// A client whose POST timed out cannot know whether it was applied. With an Idempotency-Key it
// sends the same request again and gets the first answer, not a second project.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const realNow = restoreClockAfterEach();

/** Holds the next PutItem on a table until released, so a request can be caught while it runs. */
function holdNextPut(tableSuffix: string): { reached: Promise<void>; release(): void } {
  let armed = true;
  let reach = (): void => undefined;
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  storeClients().db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string };
      if (armed && context.commandName === 'PutItemCommand' && input.TableName?.endsWith(tableSuffix)) {
        armed = false;
        reach();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name: `holdPut-${randomUUID()}` },
  );
  return { reached, release };
}

const createProject = (key: string, idempotencyKey: string | undefined, json: unknown) =>
  call(`${gateway.baseUrl}/projects`, {
    method: 'POST',
    key,
    json,
    ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
  });

const projectCount = async (key: string): Promise<number> =>
  ((await call(`${gateway.baseUrl}/projects`, { key })).body as { projects: unknown[] }).projects.length;

/** The raw text of a response body, as the client received it. */
const rawBody = (response: JsonResponse): string => JSON.stringify(response.body);

describe('Idempotency-Key on POST /v1/projects', () => {
  it('replays the first answer, byte for byte with its status and Location, and creates one project', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    const first = await createProject(key, idempotencyKey, { name: 'web' });
    const retry = await createProject(key, idempotencyKey, { name: 'web' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await projectCount(key)).toBe(1);
  });

  it('treats the same body with its fields in another order as the same request', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    const first = await createProject(key, idempotencyKey, { name: 'web', repository: 'acme/web' });
    const retry = await createProject(key, idempotencyKey, { repository: 'acme/web', name: 'web' });
    expect(rawBody(retry)).toBe(rawBody(first));
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
  });

  it('answers 422 idempotency_key_reused when the key comes back with another body', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    await createProject(key, idempotencyKey, { name: 'web' });
    const reused = await createProject(key, idempotencyKey, { name: 'api' });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ error: 'idempotency_key_reused', message: expect.any(String) });
    expect(await projectCount(key)).toBe(1);
  });

  it('answers 422 when the key comes back with the same body for another team, and creates nothing there', async () => {
    const owner = await newPerson('Owner');
    const [one, two] = [await newTeam(gateway.baseUrl, owner), await newTeam(gateway.baseUrl, owner)];
    const idempotencyKey = randomUUID();
    const createIn = (teamId: string) =>
      call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
        method: 'POST',
        key: owner.key,
        json: { name: 'web' },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    expect((await createIn(one)).status).toBe(201);
    const elsewhere = await createIn(two);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ error: 'idempotency_key_reused' });
    const listed = await call(`${gateway.baseUrl}/projects?teamId=${two}`, { key: owner.key });
    expect((listed.body as { projects: unknown[] }).projects).toEqual([]);
    // The same team again is the same request: replayed.
    const again = await createIn(one);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
  });

  it("replays a retried POST /deployments in a shared team after reading the caller's membership: a member since removed gets the team's 404", async () => {
    const owner = await newPerson('Owner');
    const developer = await newPerson('Dev');
    const teamId = await newTeam(gateway.baseUrl, owner);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');
    const project = await call(`${gateway.baseUrl}/projects?teamId=${teamId}`, {
      method: 'POST',
      key: owner.key,
      json: { name: 'web' },
    });
    const idempotencyKey = randomUUID();
    const deploy = () =>
      call(`${gateway.baseUrl}/deployments?teamId=${teamId}`, {
        method: 'POST',
        key: developer.key,
        json: { projectId: (project.body as { id: string }).id },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    const first = await deploy();
    expect(first.status).toBe(201);
    const again = await deploy();
    expect([again.status, again.headers.get('idempotency-replayed')]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);

    const removed = await call(`${gateway.baseUrl}/teams/${teamId}/members/${developer.userId}`, {
      method: 'DELETE',
      key: owner.key,
    });
    expect(removed.status).toBe(204);
    const afterRemoval = await deploy();
    expect(afterRemoval.status).toBe(404);
    expect(afterRemoval.body).toEqual({ error: 'not_found', message: `Team ${teamId} was not found` });
  });

  it('answers 409 to duplicates that arrive while the first is still running, then replays the first', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    const held = holdNextPut('projects');
    const first = createProject(key, idempotencyKey, { name: 'web' });
    await held.reached; // the first has claimed the key and is writing its project

    const duplicates = await Promise.all(
      Array.from({ length: 5 }, () => createProject(key, idempotencyKey, { name: 'web' })),
    );
    for (const duplicate of duplicates) {
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ error: 'conflict', message: expect.stringContaining('in progress') });
      // Waiting is what the client should do: the first's answer is replayed once it is done.
      expect(duplicate.headers.get('retry-after')).toBe('1');
    }

    held.release();
    const created = await first;
    expect(created.status).toBe(201);
    const retry = await createProject(key, idempotencyKey, { name: 'web' });
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.text).toBe(created.text);
    expect(await projectCount(key)).toBe(1);
  });

  it('keeps keys apart per user: the same value gives each user their own project', async () => {
    const alice = await newCaller();
    const bob = await newCaller();
    const idempotencyKey = randomUUID();
    const theirs = await createProject(alice.key, idempotencyKey, { name: 'web' });
    const mine = await createProject(bob.key, idempotencyKey, { name: 'web' });
    expect(mine.status).toBe(201);
    expect(mine.headers.get('idempotency-replayed')).toBeNull();
    expect((mine.body as { id: string }).id).not.toBe((theirs.body as { id: string }).id);
  });

  it('forgets a key after 24 hours: the same request then creates anew', async () => {
    const { key } = await newCaller({ ttlSeconds: 3 * 24 * 60 * 60 });
    const idempotencyKey = randomUUID();
    const first = await createProject(key, idempotencyKey, { name: 'web' });
    const start = realNow();
    clock.now = () => start + 24 * 60 * 60 * 1000 - 5_000;
    expect(
      (await createProject(key, idempotencyKey, { name: 'web' })).headers.get('idempotency-replayed'),
    ).toBe('true');
    clock.now = () => start + 24 * 60 * 60 * 1000 + 5_000;
    const later = await createProject(key, idempotencyKey, { name: 'web' });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotency-replayed')).toBeNull();
    expect((later.body as { id: string }).id).not.toBe((first.body as { id: string }).id);
  });

  it('does not store a validation failure: the corrected request with the same key runs', async () => {
    const { key } = await newCaller();
    const idempotencyKey = randomUUID();
    expect((await createProject(key, idempotencyKey, { name: '' })).status).toBe(400);
    const corrected = await createProject(key, idempotencyKey, { name: 'web' });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotency-replayed')).toBeNull();
  });

  it.each([[''], ['x'.repeat(256)], ['tab\there']])(
    'refuses the key %p with 400 naming the header',
    async (value) => {
      const { key } = await newCaller();
      const response = await createProject(key, value, { name: 'web' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'validation_error', field: 'Idempotency-Key' });
    },
  );

  it('works on POST /v1/deployments and POST /v1/keys too', async () => {
    const { key } = await newCaller();
    const project = (await createProject(key, undefined, { name: 'web' })).body as { id: string };
    for (const [path, json] of [
      ['/deployments', { projectId: project.id }],
      ['/keys', { name: 'ci' }],
    ] as const) {
      const idempotencyKey = randomUUID();
      const post = () =>
        call(`${gateway.baseUrl}${path}`, {
          method: 'POST',
          key,
          json,
          headers: { 'Idempotency-Key': idempotencyKey },
        });
      const first = await post();
      const retry = await post();
      expect(first.status).toBe(201);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
    }
  });
});

describe('the stored answer of a POST /v1/keys', () => {
  it("keeps the new key's plaintext out of the table, yet replays it to the retry that holds the Idempotency-Key", async () => {
    const { userId, keyId, key } = await newCaller();
    const idempotencyKey = randomUUID();
    const post = () =>
      call(`${gateway.baseUrl}/keys`, {
        method: 'POST',
        key,
        json: { name: 'leak-proof' },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    const first = await post();
    const plaintext = (first.body as { apiKey: string }).apiKey;
    expect(plaintext).toMatch(/^plat_/);
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName('idempotency'),
        Key: { id: recordIdOf(credentialOf({ userId, keyId }), idempotencyKey) },
      }),
    );
    expect(Item?.state).toBe('completed');
    expect(JSON.stringify(Item)).not.toContain(plaintext);
    expect(JSON.stringify(Item)).not.toContain(idempotencyKey);
    const retry = await post();
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect((retry.body as { apiKey: string }).apiKey).toBe(plaintext);
  });
});

describe('a create whose response was lost on the way back', () => {
  /** Lets the next PutItem on `tableSuffix` reach the store, then fails it as a dropped connection would. */
  function loseNextPutResponse(tableSuffix: string): void {
    let armed = true;
    storeClients().db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const input = args.input as { TableName?: string };
        if (armed && context.commandName === 'PutItemCommand' && input.TableName?.endsWith(tableSuffix)) {
          armed = false;
          throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} });
        }
        return result;
      },
      { step: 'deserialize', name: `loseResponse-${randomUUID()}` },
    );
  }

  it('still answers 201 with the project that was created, once, without an Idempotency-Key', async () => {
    const { key } = await newCaller();
    loseNextPutResponse('projects');
    const created = await createProject(key, undefined, { name: 'web' });
    expect(created.status).toBe(201);
    const { projects } = (await call(`${gateway.baseUrl}/projects`, { key })).body as {
      projects: { id: string }[];
    };
    expect(projects.map(({ id }) => id)).toEqual([(created.body as { id: string }).id]);
  });

  it('still answers 201 with the deployment that was created, once', async () => {
    const { key } = await newCaller();
    const project = (await createProject(key, undefined, { name: 'web' })).body as { id: string };
    loseNextPutResponse('deployments');
    const created = await call(`${gateway.baseUrl}/deployments`, {
      method: 'POST',
      key,
      json: { projectId: project.id },
    });
    expect(created.status).toBe(201);
    const list = await call(`${gateway.baseUrl}/projects/${project.id}/deployments`, { key });
    expect((list.body as { deployments: unknown[] }).deployments).toHaveLength(1);
  });
});
