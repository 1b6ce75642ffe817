import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { tableName } from '#shared/db/tables.ts';
import { MAX_LOG_BYTES } from '#shared/model/deployments/logs.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import * as made from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// A deployment's build log over HTTP on DynamoDB Local: appending and reading (pages, `since`), the
// sequence numbers under racing appends, the limits, who may do what, and the masking of secrets.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

interface Line {
  seq: number;
  at: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const logsUrl = (id: string) => `${gateway.baseUrl}/deployments/${id}/logs`;

/** An append made with exactly this key. */
const appendAs = (key: string, id: string, lines: unknown[], headers: Record<string, string> = {}) =>
  call(logsUrl(id), { method: 'POST', key, json: { lines }, headers });

/** An append as the build system of the user whose key this is (only `build` keys append). */
const append = async (key: string, id: string, lines: unknown[], headers: Record<string, string> = {}) =>
  appendAs(await made.builderOf(gateway.baseUrl, key), id, lines, headers);

const texts = (...values: string[]) => values.map((text) => ({ text }));

/** Every line of a deployment's log, page by page (100 a page). */
const readAll = async (key: string, id: string): Promise<Line[]> =>
  (await walkPages<Line>(logsUrl(id), key, 'lines', 100)).items;

const report = (key: string, id: string, status: string) =>
  call(`${gateway.baseUrl}/deployments/${id}/events`, { method: 'POST', key, json: { status } });

describe('appending and reading', () => {
  it('numbers lines from 1, keeps a given time and stream, and reads them back oldest first', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const first = await append(key, id, [
      { text: '> npm ci' },
      { text: 'warning: deprecated', stream: 'stderr', at: '2026-11-22T09:16:05.000Z' },
    ]);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ firstSeq: 1, lastSeq: 2 });
    expect((await append(key, id, texts('> npm run build'))).body).toEqual({ firstSeq: 3, lastSeq: 3 });

    const page = await call(logsUrl(id), { key });
    expect(page.status).toBe(200);
    const { lines, nextCursor } = page.body as { lines: Line[]; nextCursor: string | null };
    expect(nextCursor).toBeNull();
    expect(lines).toEqual([
      { seq: 1, at: expect.stringMatching(ISO), stream: 'stdout', text: '> npm ci' },
      { seq: 2, at: '2026-11-22T09:16:05.000Z', stream: 'stderr', text: 'warning: deprecated' },
      { seq: 3, at: expect.stringMatching(ISO), stream: 'stdout', text: '> npm run build' },
    ]);
  });

  it('pages through the log with limit and cursor, and starts after `since`', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    // Appends of several sizes, so that pages begin and end inside an append's lines.
    for (const size of [3, 1, 7, 2]) {
      const start = (await readAll(key, id)).length;
      const lines = Array.from({ length: size }, (_, index) => ({ text: `line ${start + index + 1}` }));
      expect((await append(key, id, lines)).status).toBe(201);
    }
    const seen: number[] = [];
    let url: string | undefined = `${logsUrl(id)}?limit=4`;
    let pages = 0;
    while (url) {
      const page = await call(url, { key });
      const body = page.body as { lines: Line[]; nextCursor: string | null };
      seen.push(...body.lines.map((line) => line.seq));
      pages++;
      url = body.nextCursor
        ? `${logsUrl(id)}?limit=4&cursor=${encodeURIComponent(body.nextCursor)}`
        : undefined;
    }
    expect(seen).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    expect(pages).toBe(4);

    const since = await call(`${logsUrl(id)}?since=5&limit=3`, { key });
    expect((since.body as { lines: Line[] }).lines.map((line) => [line.seq, line.text])).toEqual([
      [6, 'line 6'],
      [7, 'line 7'],
      [8, 'line 8'],
    ]);
    const end = await call(`${logsUrl(id)}?since=13`, { key });
    expect(end.body).toEqual({ lines: [], nextCursor: null });
  });

  it('refuses a tampered cursor and a bad since, naming the field', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const cursor = await call(`${logsUrl(id)}?cursor=bogus.cursor`, { key });
    expect(cursor.status).toBe(400);
    expect(cursor.body).toMatchObject({ error: 'validation_error', field: 'cursor' });
    const since = await call(`${logsUrl(id)}?since=-1`, { key });
    expect(since.status).toBe(400);
    expect(since.body).toMatchObject({ error: 'validation_error', field: 'since' });
  });

  it('gives 20 racing appends gap-free, strictly increasing numbers, each line once', async () => {
    const { key } = await newCaller({ rateLimit: 1000 });
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, racer) =>
        append(key, id, [
          { text: `racer ${racer} a` },
          { text: `racer ${racer} b` },
          { text: `racer ${racer} c` },
        ]),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const ranges = answers
      .map((answer) => answer.body as { firstSeq: number; lastSeq: number })
      .sort((a, b) => a.firstSeq - b.firstSeq);
    expect(ranges).toEqual(
      Array.from({ length: 20 }, (_, index) => ({ firstSeq: index * 3 + 1, lastSeq: index * 3 + 3 })),
    );

    const lines = await readAll(key, id);
    expect(lines.map((line) => line.seq)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    // Each append's lines are consecutive, in the order sent.
    for (const range of ranges) {
      const own = lines.slice(range.firstSeq - 1, range.lastSeq).map((line) => line.text);
      expect(own[0]?.endsWith(' a') && own[1]?.endsWith(' b') && own[2]?.endsWith(' c')).toBe(true);
      expect(new Set(own.map((text) => text.split(' ')[1])).size).toBe(1);
    }
  });

  it('stores a retried append (same Idempotency-Key) once', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const headers = { 'Idempotency-Key': `logs-${id}` };
    const first = await append(key, id, texts('once'), headers);
    const again = await append(key, id, texts('once'), headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await readAll(key, id)).map((line) => line.text)).toEqual(['once']);
  });
});

describe('limits', () => {
  it('takes 500 lines at once and refuses 501, and a line over 8 KiB naming it', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const many = Array.from({ length: 500 }, (_, index) => ({ text: String(index) }));
    expect((await append(key, id, many)).body).toEqual({ firstSeq: 1, lastSeq: 500 });
    const tooMany = await append(key, id, [...many, { text: 'x' }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'validation_error', field: 'lines' });

    // 8 KiB of UTF-8: 2,731 three-byte characters are 8,193 bytes though 2,731 characters long.
    const atLimit = 'x'.repeat(8 * 1024);
    expect((await append(key, id, [{ text: atLimit }])).status).toBe(201);
    const over = await append(key, id, [{ text: 'ok' }, { text: '€'.repeat(2731) }]);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'validation_error', field: 'lines.1.text' });
    const empty = await append(key, id, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'validation_error', field: 'lines' });
    const unknown = await append(key, id, [{ text: 'a', level: 'info' }]);
    expect(unknown.body).toMatchObject({ error: 'validation_error', field: 'lines.0.level' });
  });

  it('answers 409 once the deployment is terminal, naming its status', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    expect((await report(key, id, 'building')).status).toBe(200);
    expect((await append(key, id, texts('building'))).status).toBe(201);
    expect((await report(key, id, 'ready')).status).toBe(200);
    const late = await append(key, id, texts('too late'));
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      error: 'conflict',
      message: `Deployment ${id} is ready; log lines are accepted only while it is queued or building`,
    });
    expect((await readAll(key, id)).map((line) => line.text)).toEqual(['building']);
  });

  it('answers 409 past 50,000 lines per deployment, and stores nothing of the refused append', async () => {
    const { key } = await newCaller({ rateLimit: 1000 });
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const batch = Array.from({ length: 500 }, () => ({ text: '.' }));
    for (let round = 0; round < 100; round++) expect((await append(key, id, batch)).status).toBe(201);
    const over = await append(key, id, texts('one too many'));
    expect(over.status).toBe(409);
    expect((over.body as { message: string }).message).toMatch(
      /holds 50000 log lines .* at most 50000 lines/,
    );
    const tail = await call(`${logsUrl(id)}?since=49999`, { key });
    expect((tail.body as { lines: Line[] }).lines.map((line) => line.seq)).toEqual([50000]);
  }, 60_000);
});

describe('the 10 MiB per deployment', () => {
  it('refuses the append that would pass it, and takes one that reaches it exactly', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    expect((await append(key, id, texts('first'))).status).toBe(201);
    // The head as 10 MiB of text would leave it, less 4 bytes: what the next append is measured against.
    await db.send(
      new UpdateCommand({
        TableName: tableName('deploymentLogs'),
        Key: { deploymentId: id, sk: 'head' },
        UpdateExpression: 'SET #bytes = :bytes',
        ExpressionAttributeNames: { '#bytes': 'bytes' },
        ExpressionAttributeValues: { ':bytes': MAX_LOG_BYTES - 4 },
      }),
    );
    const over = await append(key, id, texts('12345'));
    expect(over.status).toBe(409);
    expect((over.body as { message: string }).message).toContain(
      `at most 50000 lines and ${MAX_LOG_BYTES} bytes`,
    );
    expect((await append(key, id, texts('1234'))).body).toEqual({ firstSeq: 2, lastSeq: 2 });
    expect((await readAll(key, id)).map((line) => line.text)).toEqual(['first', '1234']);
  });
});

describe('appends racing the end of the build', () => {
  it('either land whole before it or are refused: the log has no gap and no half append', async () => {
    const { key } = await newCaller({ rateLimit: 1000 });
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    expect((await report(key, id, 'building')).status).toBe(200);
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, racer) => append(key, id, texts(`r${racer} a`, `r${racer} b`))),
      report(key, id, 'ready'),
    ]);
    const appends = answers.slice(0, 12);
    expect(answers.at(-1)?.status).toBe(200);
    for (const answer of appends.filter((each) => each.status !== 201)) {
      expect(answer.status).toBe(409);
      expect((answer.body as { message: string }).message).toContain('is ready');
    }
    const landed = appends.filter((answer) => answer.status === 201).length;
    const lines = await readAll(key, id);
    expect(lines.map((line) => line.seq)).toEqual(
      Array.from({ length: landed * 2 }, (_, index) => index + 1),
    );
    for (let index = 0; index < lines.length; index += 2) {
      expect(lines[index]?.text.replace(' a', '')).toBe(lines[index + 1]?.text.replace(' b', ''));
    }
    expect((await append(key, id, texts('after'))).status).toBe(409);
  });
});

describe('who may append and read', () => {
  it("answers 404 for another user's deployment and an unknown id, to append and to read", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, owner.key);
    expect((await append(owner.key, id, texts('mine'))).status).toBe(201);
    for (const target of [id, 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M', 'nonsense']) {
      const write = await append(stranger.key, target, texts('theirs'));
      expect(write.status).toBe(404);
      expect(write.body).toEqual({ error: 'not_found', message: `Deployment ${target} was not found` });
      expect((await call(logsUrl(target), { key: stranger.key })).status).toBe(404);
    }
    expect((await readAll(owner.key, id)).map((line) => line.text)).toEqual(['mine']);
  });

  it('lets a build key append and read, a read key only read', async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const build = await made.keyWith(gateway.baseUrl, key, ['build']);
    const read = await made.keyWith(gateway.baseUrl, key, ['read']);
    expect((await appendAs(build, id, texts('from ci'))).status).toBe(201);
    const refused = await appendAs(read, id, texts('from a reader'));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });
    for (const reader of [read, build]) {
      expect((await readAll(reader, id)).map((line) => line.text)).toEqual(['from ci']);
    }
  });

  it("refuses a write key's append (403): only build keys append, so no key can test guesses at a secret", async () => {
    const { key } = await newCaller();
    const { id } = await made.newDeployment(gateway.baseUrl, key);
    const refused = await appendAs(key, id, texts('guess-1', 'guess-2'));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden', message: expect.stringContaining('build') });
    expect(await readAll(key, id)).toEqual([]);
  });
});

describe('masking secrets', () => {
  it('masks every line of a multi-line secret (of 4 characters or more) wherever it appears, in any append', async () => {
    const { key } = await newCaller();
    const { id, projectId } = await made.newDeployment(gateway.baseUrl, key);
    const pem = [
      '-----BEGIN PRIVATE KEY-----',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
      'q1w2e3r4t5y6u7i8o9p0asdfghjklzxcvbnmQWERTYUIOPASDF',
      'abc',
      '-----END PRIVATE KEY-----',
    ];
    const secret = await call(`${gateway.baseUrl}/projects/${projectId}/env`, {
      method: 'POST',
      key,
      json: { key: 'TLS_KEY', value: pem.join('\n'), type: 'secret' },
    });
    expect(secret.status).toBe(201);
    expect((await append(key, id, texts(pem.join('\n')))).status).toBe(201);
    expect((await append(key, id, texts(...pem.map((line) => `  ${line}`)))).status).toBe(201);
    expect((await append(key, id, texts(`key part: ${pem[2]}!`, pem[1] ?? ''))).status).toBe(201);
    const shown = (await readAll(key, id)).map((line) => line.text);
    for (const line of pem.filter((part) => part.length >= 4))
      expect(shown.filter((text) => text.includes(line))).toEqual([]);
    expect(shown).toEqual(['***', '  ***', '  ***', '  ***', '  abc', '  ***', 'key part: ***!', '***']);
  });

  it("masks the snapshot's and the project's current secret values, never plain ones or short ones", async () => {
    const { key } = await newCaller();
    const project = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'web' } });
    const projectId = (project.body as { id: string }).id;
    const env = `${gateway.baseUrl}/projects/${projectId}/env`;
    const variables = [
      { key: 'TOKEN', value: 'tok-SnapshotSecret-1', type: 'secret' },
      { key: 'TOKEN_PREFIX', value: 'tok-Snap', type: 'secret' },
      { key: 'PIN', value: 'abc', type: 'secret' },
      { key: 'REGION', value: 'eu-west-1', type: 'plain' },
    ];
    for (const json of variables) expect((await call(env, { method: 'POST', key, json })).status).toBe(201);
    const created = await call(`${gateway.baseUrl}/deployments`, {
      method: 'POST',
      key,
      json: { projectId },
    });
    const { id } = created.body as { id: string };
    // Added after the deployment was made: not in its snapshot, yet the project's now.
    const later = { key: 'LATER', value: 'later-secret-value', type: 'secret' };
    expect((await call(env, { method: 'POST', key, json: later })).status).toBe(201);

    const secretsShown = [
      'token=tok-SnapshotSecret-1;',
      'prefix tok-Snap and tok-SnapshotSecret-1tok-SnapshotSecret-1',
      'pin abc region eu-west-1',
      'later: later-secret-value',
    ];
    expect((await append(key, id, texts(...secretsShown))).status).toBe(201);
    const expected = ['token=***;', 'prefix *** and ******', 'pin abc region eu-west-1', 'later: ***'];
    expect((await readAll(key, id)).map((line) => line.text)).toEqual(expected);

    // Nothing the store holds for this log carries a secret value, in any attribute.
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName('deploymentLogs'),
        KeyConditionExpression: 'deploymentId = :id',
        ExpressionAttributeValues: { ':id': id },
        ConsistentRead: true,
      }),
    );
    const stored = JSON.stringify(Items);
    for (const secret of ['tok-SnapshotSecret-1', 'tok-Snap', 'later-secret-value', 'SnapshotSecret']) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('eu-west-1');
  });

  it('masks a secret changed or added between two appends of the same build', async () => {
    const { key } = await newCaller();
    const { id, projectId } = await made.newDeployment(gateway.baseUrl, key);
    const env = `${gateway.baseUrl}/projects/${projectId}/env`;
    const first = await call(env, {
      method: 'POST',
      key,
      json: { key: 'TOKEN', value: 'first-token-value', type: 'secret' },
    });
    expect(first.status).toBe(201);
    expect((await append(key, id, texts('one: first-token-value'))).status).toBe(201);
    const variableId = (first.body as { id: string }).id;
    expect(
      (await call(`${env}/${variableId}`, { method: 'PATCH', key, json: { value: 'second-token-value' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(env, {
          method: 'POST',
          key,
          json: { key: 'OTHER', value: 'other-secret', type: 'secret' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await append(key, id, texts('two: second-token-value other-secret first-token-value'))).status,
    ).toBe(201);
    // The first value is no longer the project's, nor in this deployment's snapshot (made before it).
    expect((await readAll(key, id)).map((line) => line.text)).toEqual([
      'one: ***',
      'two: *** *** first-token-value',
    ]);
  });
});
