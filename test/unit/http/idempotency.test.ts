import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MiddlewareObj } from '@middy/core';
import { db } from '#shared/db/client.ts';
import { claim } from '#shared/db/idempotency.ts';
import { tableName } from '#shared/db/tables.ts';
import { errorShaping } from '#shared/http/answers/error-response.ts';
import { credentialOf, IDEMPOTENCY_TTL_SECONDS, idempotent } from '#shared/http/idempotency/idempotent.ts';
import { open, recordIdOf } from '#shared/http/idempotency/sealed-response.ts';
import type { EndpointContext, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { personalTeamOf } from '#shared/model/teams.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { captureLogs } from '../../support/logs.ts';
import { bodyOf, proxyEvent, runChain, type TestHandler } from '../../support/proxy-events.ts';

// idempotent() on DynamoDB Local: a POST sent again with the same Idempotency-Key gets the first
// answer, the handler runs once, and what is kept (and for how long) is what docs/api.md promises.

let now: number;
beforeEach(() => {
  now = 1_795_338_942;
  clock.now = () => now * 1000;
});
restoreClockAfterEach();

/** What admission and json-body leave on the state before the handler: the caller and the body. */
function admitted(userId: string): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  return {
    before: (request) => {
      request.context.state.caller = {
        userId,
        role: 'member',
        keyId: 'key_test',
        keyName: 'test',
        keyHash: 'digest',
        scopes: ['read', 'write'],
        keyExpiresAt: now + 3600,
        team: personalTeamOf(userId),
      };
      request.context.state.body = request.event.body === null ? undefined : JSON.parse(request.event.body);
    },
  };
}

/** A create handler that counts its runs and answers 201 with the run number. */
function creator(status = 201) {
  let runs = 0;
  const handler: TestHandler = async () => {
    runs += 1;
    return {
      statusCode: status,
      headers: { 'Content-Type': 'application/json; charset=utf-8', Location: `/v1/projects/prj_${runs}` },
      body: JSON.stringify({ id: `prj_${runs}`, run: runs }),
    };
  };
  return { handler, runs: () => runs };
}

function post(
  userId: string,
  handler: TestHandler,
  key: string | undefined,
  body: unknown = { name: 'web' },
) {
  const event = proxyEvent({
    method: 'POST',
    resource: '/projects',
    headers: {
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify(body),
  });
  return runChain([errorShaping(), admitted(userId)], event, idempotent(handler)).then(
    ({ result }) => result,
  );
}

const user = () => `usr_idem_${randomUUID()}`;

/** Whose records the requests of `userId` above are: the user and the key `admitted` gives them. */
const ownerOf = (userId: string) => credentialOf({ userId, keyId: 'key_test' });

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte, marked as replayed, and runs the handler once', async () => {
    const me = user();
    const create = creator();
    const first = await post(me, create.handler, 'k-1', { name: 'web', repository: 'acme/web' });
    const again = await post(me, create.handler, 'k-1', { repository: 'acme/web', name: 'web' });
    expect(first.statusCode).toBe(201);
    expect(again).toEqual({ ...first, headers: { ...first.headers, 'Idempotency-Replayed': 'true' } });
    expect(create.runs()).toBe(1);
  });

  it('keeps the answer for 24 hours under a digest of the credential and the key, its body sealed with the key', async () => {
    const me = user();
    await post(me, creator().handler, 'k-stored');
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName('idempotency'),
        Key: { id: recordIdOf(ownerOf(me), 'k-stored') },
      }),
    );
    expect(Item).toMatchObject({ state: 'completed', expiresAt: now + IDEMPOTENCY_TTL_SECONDS });
    const stored = Item?.response as { statusCode: number; headers: Record<string, string>; body: string };
    expect(stored.statusCode).toBe(201);
    // Neither the body nor the key can be read from the table (headers such as Location are kept
    // as they are: they carry ids, never a secret).
    expect(stored.body).not.toContain('prj_1');
    expect(stored.body).not.toContain('run');
    expect(JSON.stringify(Item)).not.toContain('k-stored');
    expect(open(stored, ownerOf(me), 'k-stored').body).toBe(JSON.stringify({ id: 'prj_1', run: 1 }));
    expect(() => open(stored, ownerOf(me), 'k-other')).toThrow();
    expect(() => open(stored, user(), 'k-stored')).toThrow();
    expect(IDEMPOTENCY_TTL_SECONDS).toBe(24 * 60 * 60);
  });

  it('runs the request anew once the first answer has expired', async () => {
    const me = user();
    const create = creator();
    await post(me, create.handler, 'k-expiry');
    now += IDEMPOTENCY_TTL_SECONDS;
    const later = await post(me, create.handler, 'k-expiry');
    expect(bodyOf(later)).toEqual({ id: 'prj_2', run: 2 });
    expect(later.headers?.['Idempotency-Replayed']).toBeUndefined();
  });

  it('answers the same key with another request with 422', async () => {
    const me = user();
    const create = creator();
    await post(me, create.handler, 'k-reused', { name: 'web' });
    const other = await post(me, create.handler, 'k-reused', { name: 'api' });
    expect(other.statusCode).toBe(422);
    expect(bodyOf(other)).toEqual({
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was used with another request',
    });
    expect(create.runs()).toBe(1);
  });

  it('answers a duplicate of a request still running with 409', async () => {
    const me = user();
    let finish: () => void = () => undefined;
    const slow: TestHandler = async () => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return { statusCode: 201, headers: {}, body: '{"id":"prj_slow"}' };
    };
    const first = post(me, slow, 'k-running');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const duplicate = await post(me, slow, 'k-running');
    finish();
    expect(duplicate.statusCode).toBe(409);
    expect(bodyOf(duplicate)).toEqual({
      error: 'conflict',
      message: 'A request with this Idempotency-Key is still in progress; retry later',
    });
    expect((await first).statusCode).toBe(201);
  });

  it('takes over a claim whose function died once the function timeout has passed', async () => {
    const me = user();
    await claim({
      id: recordIdOf(ownerOf(me), 'k-died'),
      fingerprint: 'x',
      nowSeconds: now,
      lockedUntil: now + 10,
      expiresAt: now + 86_400,
    });
    now += 11;
    const create = creator();
    expect((await post(me, create.handler, 'k-died')).statusCode).toBe(201);
    expect(create.runs()).toBe(1);
  });

  it('keeps no answer of 500 or more, so a retry runs again', async () => {
    const me = user();
    const failing = creator(503);
    expect((await post(me, failing.handler, 'k-5xx')).statusCode).toBe(503);
    expect((await post(me, failing.handler, 'k-5xx')).statusCode).toBe(503);
    expect(failing.runs()).toBe(2);
  });

  it('keeps no error, so a corrected retry runs', async () => {
    const me = user();
    let runs = 0;
    const flaky: TestHandler = async () => {
      runs += 1;
      if (runs === 1) throw new Error('store hiccup');
      return { statusCode: 201, headers: {}, body: '{"id":"prj_ok"}' };
    };
    const { result: failed } = await captureLogs(() => post(me, flaky, 'k-error'));
    expect(failed.statusCode).toBe(500);
    expect((await post(me, flaky, 'k-error')).statusCode).toBe(201);
    expect(runs).toBe(2);
  });

  it('runs every request without the header', async () => {
    const me = user();
    const create = creator();
    await post(me, create.handler, undefined);
    await post(me, create.handler, undefined);
    expect(create.runs()).toBe(2);
  });

  it('keeps keys per user: two users may send the same value', async () => {
    const create = creator();
    await post(user(), create.handler, 'k-shared');
    const theirs = await post(user(), create.handler, 'k-shared');
    expect(bodyOf(theirs)).toEqual({ id: 'prj_2', run: 2 });
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['padded with a space', ' k'],
  ])('refuses a key that is %s with 400 naming the header', async (_case, key) => {
    const create = creator();
    const result = await post(user(), create.handler, key);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({
      error: 'validation_error',
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
      field: 'Idempotency-Key',
    });
    expect(create.runs()).toBe(0);
  });

  it('takes a key of 255 visible characters', async () => {
    expect((await post(user(), creator().handler, 'k'.repeat(255))).statusCode).toBe(201);
  });
});
