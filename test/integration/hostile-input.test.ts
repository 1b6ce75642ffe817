import { connect } from 'node:net';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

// Requests a browser or an SDK would never send, but a scanner or a broken client does: odd request
// targets, malformed HTTP, text that is not text. Each gets an answer in the contract's JSON.

let gateway: TestGateway;
let port: number;
beforeAll(async () => {
  gateway = await startGateway();
  port = Number(new URL(gateway.backendUrl).port);
});
afterAll(() => gateway.close());

interface RawAnswer {
  status: number;
  headers: string;
  body: unknown;
}

/** The body of a response sent with `Transfer-Encoding: chunked`. */
function unchunk(body: string): string {
  let rest = body;
  let out = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    const start = lineEnd + 2;
    out += Buffer.from(rest.slice(start)).subarray(0, size).toString('utf8');
    rest = Buffer.from(rest.slice(start))
      .subarray(size + 2)
      .toString('utf8');
  }
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const head = text.slice(0, split);
  const payload = text.slice(split + 4);
  const body = /transfer-encoding: chunked/i.test(head) ? unchunk(payload) : payload;
  return { status: Number(head.split(' ')[1]), headers: head, body: body ? JSON.parse(body) : undefined };
}

/** Sends bytes as they are (no client normalises the target) and reads the answer until the socket closes. */
function raw(request: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    // Every request says `Connection: close`: the server closes once it has answered.
    socket.write(request);
  });
}

const get = (target: string, key?: string): string =>
  `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${key ? `Authorization: Bearer ${key}\r\n` : ''}Connection: close\r\n\r\n`;

describe('request targets', () => {
  it.each([['*'], ['v1/projects'], ['http://[::1/v1/projects']])(
    'answers the target %s with 400 in JSON',
    async (target) => {
      const answer = await raw(get(target));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'validation_error', message: expect.any(String) });
    },
  );

  it.each([['//evil.example/v1/projects'], ['//a:99999/v1/projects']])(
    'serves %s as the path it is, not as /v1/projects of another host',
    async (target) => {
      const { key } = await newCaller();
      const answer = await raw(get(target, key));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', message: 'No such endpoint' });
    },
  );

  it('serves an absolute-form target by its path alone', async () => {
    const { key } = await newCaller();
    const answer = await raw(get('http://evil.example/v1/projects?limit=1', key));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ projects: [], nextCursor: null });
  });

  it('answers a request Node cannot parse with 400 in JSON', async () => {
    const answer = await raw('GET /health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('application/json');
    expect(answer.body).toEqual({ error: 'validation_error', message: 'Request is not valid HTTP' });
  });
});

describe('text that is not text', () => {
  const createProject = (key: string, rawBody: string | Buffer) =>
    raw(
      Buffer.concat([
        Buffer.from(
          `POST /v1/projects HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(rawBody)}\r\nConnection: close\r\n\r\n`,
        ),
        Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody),
      ]),
    );

  it.each([
    ['productionBranch', '{"name":"ok","productionBranch":"\\ud800"}'],
    ['name', '{"name":"a\\udc00b"}'],
    ['repository', '{"name":"ok","repository":"acme/\\ud83d"}'],
  ])('refuses a lone surrogate in %s with 400 naming it', async (field, body) => {
    const { key } = await newCaller();
    const answer = await createProject(key, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'validation_error',
      message: `${field} must be well-formed Unicode text`,
      field,
    });
  });

  it('refuses a lone surrogate in a login email with 400 naming it', async () => {
    const response = await call(`${gateway.backendUrl}/auth/login`, {
      method: 'POST',
      rawBody: '{"email":"\\ud800@example.test","password":"whatever1"}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_error', field: 'email' });
  });

  it('refuses a body that is not UTF-8 with 400 naming body, and creates nothing', async () => {
    const { key } = await newCaller();
    const answer = await createProject(
      key,
      Buffer.from([...Buffer.from('{"name":"'), 0xff, 0xfe, 0x22, 0x7d]),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'validation_error',
      message: 'Request body must be UTF-8 text',
      field: 'body',
    });
    expect((await call(`${gateway.baseUrl}/projects`, { key })).body).toEqual({
      projects: [],
      nextCursor: null,
    });
  });

  it('still accepts text outside the Basic Multilingual Plane', async () => {
    const { key } = await newCaller();
    const answer = await createProject(key, JSON.stringify({ name: 'rocket 🚀' }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ name: 'rocket 🚀' });
  });
});
