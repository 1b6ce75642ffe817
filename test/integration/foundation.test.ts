import { request } from 'node:http';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, rateLimitOf } from '../support/http.ts';
import { newCaller } from '../support/users.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const REQUEST_ID = /^[0-9a-f-]{36}$/;

describe('GET /health', () => {
  it('answers 200 with status ok and a request id while the table answers', async () => {
    const response = await call(`${gateway.backendUrl}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { database: 'ok' } });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
  });
});

describe('requests no route serves', () => {
  it('answers an unknown backend path with 404 not_found in JSON', async () => {
    const response = await call(`${gateway.backendUrl}/no/such/thing`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', message: 'No such endpoint' });
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
  });

  it('answers a known backend path with another method with 405 and Allow', async () => {
    const response = await call(`${gateway.backendUrl}/health`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.body).toEqual({ error: 'method_not_allowed', message: 'This path supports GET' });
  });

  it('asks for a key before saying anything about a versioned-API path', async () => {
    const response = await call(`${gateway.baseUrl}/no/such/thing`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(rateLimitOf(response).limit).toBeGreaterThan(0);
  });

  it('answers an unknown versioned-API path with 404 and the rate-limit headers', async () => {
    const { key } = await newCaller({ rateLimit: 50 });
    const response = await call(`${gateway.baseUrl}/no/such/thing`, { key });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', message: 'No such endpoint' });
    expect(rateLimitOf(response)).toMatchObject({ limit: 50, remaining: 49 });
  });

  it('answers a versioned-API path with another method with 405, Allow and the rate-limit headers', async () => {
    const { key } = await newCaller({ rateLimit: 50 });
    const response = await call(`${gateway.baseUrl}/projects`, { method: 'DELETE', key });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(rateLimitOf(response)).toMatchObject({ limit: 50, remaining: 49 });
  });

  it('answers a key of any scope 405 or 404 there, never a 403 for a scope the request does not need', async () => {
    for (const scopes of [['read'], ['build']] as const) {
      const { key } = await newCaller({ scopes: [...scopes] });
      const wrongMethod = await call(`${gateway.baseUrl}/projects`, { method: 'DELETE', key });
      expect({ scopes, status: wrongMethod.status, allow: wrongMethod.headers.get('allow') }).toEqual({
        scopes,
        status: 405,
        allow: 'GET, POST',
      });
      const unknown = await call(`${gateway.baseUrl}/no/such/thing`, { key });
      expect({ scopes, status: unknown.status }).toEqual({ scopes, status: 404 });
    }
  });
});

describe('query strings', () => {
  it.each([
    ['/deployments?status=ready&status=error', 'status'],
    ['/projects?limit=5&limit=5', 'limit'],
    ['/projects?teamId=team_a&teamId=team_b', 'teamId'],
  ])('answers %s, a parameter given twice, with 400 naming it', async (path, field) => {
    const { key } = await newCaller();
    const response = await call(`${gateway.baseUrl}${path}`, { key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'validation_error',
      message: `${field} must be given once`,
      field,
    });
  });
});

describe('path parameters', () => {
  it('answers an escape that is not UTF-8 with 400 naming the parameter, and decodes one that is', async () => {
    const { key } = await newCaller();
    const bad = await call(`${gateway.baseUrl}/projects/prj_%FF`, { key });
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: 'validation_error', message: 'id is not valid percent-encoded UTF-8', field: 'id' },
    ]);
    // `%5F` is `_`: the id it decodes to is looked up (and is nobody's).
    const decoded = await call(`${gateway.baseUrl}/projects/prj%5Funknown`, { key });
    expect([decoded.status, (decoded.body as { message: string }).message]).toEqual([
      404,
      'Project prj_unknown was not found',
    ]);
  });
});

describe('request bodies', () => {
  const post = (options: Parameters<typeof call>[1]) =>
    call(`${gateway.baseUrl}/projects`, { method: 'POST', ...options });

  it('refuses a body on a request whose route takes none with 400 naming body; none, or {}, is fine', async () => {
    const { key } = await newCaller();
    const created = await post({ key, json: { name: 'web' } });
    const id = (created.body as { id: string }).id;
    const remove = (options: Parameters<typeof call>[1]) =>
      call(`${gateway.baseUrl}/projects/${id}`, { method: 'DELETE', key, ...options });
    const refused = await remove({ json: { force: true } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'validation_error',
      message: 'This request takes no body',
      field: 'body',
    });
    // Refused before the handler: the project is still there.
    expect((await call(`${gateway.baseUrl}/projects/${id}`, { key })).status).toBe(200);
    expect((await remove({ json: {} })).status).toBe(204);
  });

  it('rejects a body without Content-Type: application/json with 415', async () => {
    const { key } = await newCaller();
    const response = await post({
      key,
      rawBody: '{"name":"web"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      error: 'unsupported_media_type',
      message: expect.stringContaining('application/json'),
    });
  });

  it('accepts application/json with a charset', async () => {
    const { key } = await newCaller();
    const response = await post({
      key,
      rawBody: '{"name":"web"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });

  it('rejects a body over 64 KiB with 413, before reading it as JSON', async () => {
    const { key } = await newCaller();
    const response = await post({ key, json: { name: 'x'.repeat(64 * 1024) } });
    expect(response.status).toBe(413);
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(rateLimitOf(response)).toMatchObject({ limit: 100, remaining: 99 });
    expect(response.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
  });

  it('rejects a body that is not JSON with 400 naming body', async () => {
    const { key } = await newCaller();
    const response = await post({
      key,
      rawBody: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'validation_error',
      message: 'Request body is not valid JSON',
      field: 'body',
    });
  });

  it.each([['[]'], ['"text"'], ['null'], ['']])(
    'rejects the body %p with 400 naming body',
    async (rawBody) => {
      const { key } = await newCaller();
      const response = await post({ key, rawBody, headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'validation_error',
        message: expect.any(String),
        field: 'body',
      });
    },
  );
});

describe('the local gateway', () => {
  it('keeps serving after a __proto__ parameter, a __proto__ header and an upload cut short', async () => {
    const { key } = await newCaller();
    const odd = await call(`${gateway.baseUrl}/projects?__proto__=1&limit=2`, {
      key,
      headers: Object.fromEntries([['__proto__', 'x']]), // a literal would set the prototype instead
    });
    expect(odd.status).toBe(200);

    await new Promise<void>((resolve) => {
      const upload = request(`${gateway.baseUrl}/projects`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' },
      });
      upload.on('error', () => resolve());
      upload.write('{"name":', () => {
        upload.destroy();
        resolve();
      });
    });

    expect((await call(`${gateway.backendUrl}/health`)).status).toBe(200);
  });
});
