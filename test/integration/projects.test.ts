import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';
import { walkPages } from '../support/pages.ts';
import { newCaller } from '../support/users.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROJECT_ID = /^prj_[0-9A-HJKMNP-TV-Z]{26}$/;

const createProject = (key: string, json: unknown) =>
  call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json });

async function projectIdOf(response: JsonResponse): Promise<string> {
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

describe('POST /projects', () => {
  it('creates a project with defaults, answers 201 with Location and the project', async () => {
    const { key } = await newCaller();
    const response = await createProject(key, { name: 'web' });
    expect(response.status).toBe(201);
    const body = response.body as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.stringMatching(PROJECT_ID),
      name: 'web',
      repository: null,
      productionBranch: 'main',
      production: null,
      autoPromotion: true,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: body.createdAt,
    });
    expect(response.headers.get('location')).toBe(`/v1/projects/${body.id}`);
  });

  it('keeps repository and productionBranch when given, and trims the name', async () => {
    const { key } = await newCaller();
    const response = await createProject(key, {
      name: '  docs  ',
      repository: 'https://github.com/acme/docs',
      productionBranch: 'release/2026',
    });
    expect(response.body).toMatchObject({
      name: 'docs',
      repository: 'https://github.com/acme/docs',
      productionBranch: 'release/2026',
    });
  });

  it.each([
    [{}, 'name', 'name is required'],
    [{ name: 42 }, 'name', 'name must be a string'],
    [{ name: '   ' }, 'name', 'name must not be empty'],
    [{ name: 'x'.repeat(101) }, 'name', 'name must be at most 100 characters'],
    [{ name: 'a\u0007b' }, 'name', 'name must not contain control characters'],
    [{ name: 'web', owner: 'me' }, 'owner', 'owner is not a known field'],
    [
      { name: 'web', repository: 'not a repo' },
      'repository',
      'repository must be an https URL or owner/name',
    ],
    [
      { name: 'web', productionBranch: 'bad..branch' },
      'productionBranch',
      'productionBranch must be a valid git branch name of at most 255 characters',
    ],
  ])('rejects %j with 400 naming %s', async (json, field, message) => {
    const { key } = await newCaller();
    const response = await createProject(key, json);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'validation_error', message, field });
  });

  it('rejects __proto__ in the body as an unknown field', async () => {
    const { key } = await newCaller();
    const response = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key,
      rawBody: '{"name":"web","__proto__":{"admin":true}}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.body).toEqual({
      error: 'validation_error',
      message: '__proto__ is not a known field',
      field: '__proto__',
    });
  });
});

describe('GET /projects/{id}', () => {
  it("returns the caller's project", async () => {
    const { key } = await newCaller();
    const created = await createProject(key, { name: 'api' });
    const response = await call(`${gateway.baseUrl}/projects/${await projectIdOf(created)}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
  });

  it("answers another user's project with the same 404 as an unknown one", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const id = await projectIdOf(await createProject(owner.key, { name: 'secret' }));
    const foreign = await call(`${gateway.baseUrl}/projects/${id}`, { key: stranger.key });
    const unknown = await call(`${gateway.baseUrl}/projects/prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A`, {
      key: stranger.key,
    });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'not_found', message: `Project ${id} was not found` });
    expect(unknown.body).toEqual({
      error: 'not_found',
      message: 'Project prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A was not found',
    });
  });

  it.each([['not-an-id'], ['prj_lowercase0000000000000000000'], ['%E2%9C%93']])(
    'answers the id %s with 404',
    async (id) => {
      const { key } = await newCaller();
      expect((await call(`${gateway.baseUrl}/projects/${id}`, { key })).status).toBe(404);
    },
  );

  it('rejects an overlong id with 400 naming id', async () => {
    const { key } = await newCaller();
    const response = await call(`${gateway.baseUrl}/projects/${'p'.repeat(65)}`, { key });
    expect(response.body).toEqual({
      error: 'validation_error',
      message: 'id must be at most 64 characters',
      field: 'id',
    });
  });
});

describe('GET /projects', () => {
  it("lists only the caller's projects, newest first, with nextCursor null on the last page", async () => {
    const { key } = await newCaller();
    const other = await newCaller();
    await createProject(other.key, { name: 'not mine' });
    const ids = [];
    for (const name of ['one', 'two', 'three'])
      ids.push(await projectIdOf(await createProject(key, { name })));
    const response = await call(`${gateway.baseUrl}/projects`, { key });
    expect(response.status).toBe(200);
    const body = response.body as { projects: { id: string; name: string }[]; nextCursor: string | null };
    expect(body.projects.map((project) => project.name)).toEqual(['three', 'two', 'one']);
    expect(body.projects.map((project) => project.id)).toEqual([...ids].reverse());
    expect(body.nextCursor).toBeNull();
  });

  it('answers an empty list for a new user', async () => {
    const { key } = await newCaller();
    expect((await call(`${gateway.baseUrl}/projects`, { key })).body).toEqual({
      projects: [],
      nextCursor: null,
    });
  });

  it('walks every project exactly once through limit and nextCursor', async () => {
    const { key } = await newCaller();
    const names = Array.from({ length: 7 }, (_, i) => `p${i}`);
    for (const name of names) await createProject(key, { name });
    const { items, pages } = await walkPages<{ name: string }>(
      `${gateway.baseUrl}/projects`,
      key,
      'projects',
      3,
    );
    expect(pages).toBe(3);
    expect(items.map((project) => project.name)).toEqual([...names].reverse());
  });

  it.each([['0'], ['101'], ['-1'], ['2.5'], ['ten'], ['']])(
    'rejects limit=%s with 400 naming limit',
    async (limit) => {
      const { key } = await newCaller();
      const response = await call(`${gateway.baseUrl}/projects?limit=${limit}`, { key });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'validation_error',
        message: 'limit must be a whole number from 1 to 100',
        field: 'limit',
      });
    },
  );

  it('rejects a tampered cursor, and a cursor of another user, with 400 naming cursor', async () => {
    const { key } = await newCaller();
    const other = await newCaller();
    for (const name of ['a', 'b']) await createProject(key, { name });
    const first = (await call(`${gateway.baseUrl}/projects?limit=1`, { key })).body as { nextCursor: string };
    const [payload = '', signature = ''] = first.nextCursor.split('.');
    const forgedPayload = Buffer.from('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A').toString('base64url');
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const cases = [
      [key, `${forgedPayload}.${signature}`],
      [key, flipped],
      [key, 'garbage'],
      [other.key, first.nextCursor],
    ] as const;
    for (const [caller, cursor] of cases) {
      const response = await call(`${gateway.baseUrl}/projects?cursor=${encodeURIComponent(cursor)}`, {
        key: caller,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'validation_error',
        message: 'cursor is not valid; use the nextCursor of a previous page',
        field: 'cursor',
      });
    }
  });
});
