import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newCaller } from '../../../test/support/users.ts';
import {
  ConflictError,
  NotFoundError,
  type OperationRow,
  operationTable,
  PlatformClient,
  PlatformError,
  UnauthorizedError,
  ValidationError,
} from '../src/index.ts';

// The SDK against the local gateway over real HTTP, on the run's DynamoDB Local.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const clientWith = (apiKey?: string) =>
  new PlatformClient({
    baseUrl: gateway.baseUrl,
    backendUrl: gateway.backendUrl,
    ...(apiKey ? { apiKey } : {}),
  });

describe('PlatformClient', () => {
  it('registers, logs in (and uses the new key from then on), and logs out (and stops sending it)', async () => {
    const client = clientWith();
    const email = `sdk-${randomUUID()}@example.com`;
    const user = await client.auth.register({ email, password: 'correct horse battery' });
    expect(user).toEqual(expect.objectContaining({ email, role: 'member' }));
    const login = await client.auth.login({ email, password: 'correct horse battery' });
    expect(login).toEqual(expect.objectContaining({ tokenType: 'Bearer', user }));
    expect(client.apiKey).toBe(login.apiKey);
    const project = await client.projects.create({ name: 'web', repository: 'acme/web' });
    expect(await client.projects.get(project.id)).toEqual(project);
    await client.auth.logout();
    expect(client.apiKey).toBeUndefined();
    await expect(clientWith(login.apiKey).projects.get(project.id)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('creates, reads, updates, deploys, cancels and deletes', async () => {
    const client = clientWith((await newCaller()).key);
    const project = await client.projects.create({ name: 'web' });
    expect(project).toEqual(expect.objectContaining({ name: 'web', productionBranch: 'main' }));
    const renamed = await client.projects.update(project.id, { name: 'site' });
    expect(renamed.name).toBe('site');
    const deployment = await client.deployments.create({ projectId: project.id, branch: 'main' });
    expect(deployment.status).toBe('queued');
    expect((await client.deployments.cancel(deployment.id)).status).toBe('canceled');
    const { events } = await client.deployments.listEvents(deployment.id);
    expect(events.map((event) => ('status' in event ? event.status : event.type))).toEqual([
      'queued',
      'canceled',
    ]);
    const forProject = [];
    for await (const item of client.deployments.listForProject(project.id, { status: 'canceled' }))
      forProject.push(item.id);
    expect(forProject).toEqual([deployment.id]);
    await client.projects.delete(project.id);
    await expect(client.projects.get(project.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throws the error class of the code, with status, code, message, requestId and field', async () => {
    const client = clientWith((await newCaller()).key);
    const notFound = await client.projects.get('prj_nothing').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toBeInstanceOf(PlatformError);
    expect(notFound).toMatchObject({ status: 404, code: 'not_found', message: expect.any(String) });
    expect((notFound as PlatformError).requestId).toMatch(/\S/);
    const invalid = await client.projects
      .list({ limit: 1000 })
      .page()
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error', field: 'limit' });
    const reused = { idempotencyKey: randomUUID() };
    await client.projects.create({ name: 'a' }, reused);
    await expect(client.projects.create({ name: 'b' }, reused)).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });
    const email = `taken-${randomUUID()}@example.com`;
    await clientWith().auth.register({ email, password: 'correct horse battery' });
    await expect(
      clientWith().auth.register({ email, password: 'correct horse battery' }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('walks 250 projects with for await, each once, and gives one page with its cursor', async () => {
    const client = clientWith((await newCaller({ rateLimit: 1000 })).key);
    const created = new Set<string>();
    for (let batch = 0; batch < 25; batch += 1) {
      const projects = await Promise.all(
        Array.from({ length: 10 }, (_, i) => client.projects.create({ name: `p${batch * 10 + i}` })),
      );
      for (const project of projects) created.add(project.id);
    }
    const seen: string[] = [];
    for await (const project of client.projects.list({ limit: 100 })) seen.push(project.id);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(created);

    const first = await client.projects.list({ limit: 20 }).page();
    expect(first.projects).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.projects.list({ limit: 20 }).page(first.nextCursor);
    expect(second.projects.map((p) => p.id)).toEqual(seen.slice(20, 40));
  }, 60_000);

  it('answers the docs page as text and the document as JSON', async () => {
    const client = clientWith();
    expect(await client.documentation.getDocs()).toContain('<html');
    expect((await client.documentation.getOpenApiDocument()).openapi).toBe('3.1.0');
    expect((await client.service.getHealth()).status).toBe('ok');
  });
});

describe('PlatformClient, before any request', () => {
  /** A client whose fetch records what it is asked to send and answers 200 `{}`. */
  const recording = (options: { userAgent?: string } = {}) => {
    const sent: { url: string; headers: Record<string, string> }[] = [];
    const client = new PlatformClient({
      baseUrl: 'http://platform.test/v1',
      apiKey: 'pk_test',
      ...options,
      fetch: async (url, init) => {
        sent.push({ url, headers: init.headers as Record<string, string> });
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    return { client, sent };
  };
  const methodOf = (client: PlatformClient, row: OperationRow) =>
    (client as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[row.group]?.[
      row.name
    ];
  const withPathValues = operationTable.filter((row) => 'params' in row && row.params.length > 0);

  it.each([undefined, '', '  ', null])(
    'refuses a path value of %p with a TypeError in every method, sending nothing',
    async (value) => {
      expect(withPathValues.length).toBeGreaterThan(20);
      const { client, sent } = recording();
      for (const row of withPathValues) {
        const method = methodOf(client, row);
        // Every value but the last is valid, so each parameter's own check is what refuses.
        const params = (row as OperationRow).params ?? [];
        const args = params.map((_, i) => (i === params.length - 1 ? value : 'id_1'));
        const refusal: unknown = await (async () => method?.(...args))().catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(TypeError);
        expect((refusal as TypeError).message).toBe(
          `client.${row.group}.${row.name}: ${params.at(-1)} must be a non-empty string, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
        );
      }
      expect(() => client.deployments.follow(value as string)).toThrow(TypeError);
      expect(sent).toEqual([]);
    },
  );

  it('names itself in the User-Agent, after the program that uses it where that one names itself', async () => {
    const version = (
      JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
    const plain = recording();
    await plain.client.projects.get('prj_1');
    const named = recording({ userAgent: 'my-app/1.2' });
    await named.client.projects.get('prj_1');
    expect([...plain.sent, ...named.sent].map((request) => request.headers['user-agent'])).toEqual([
      `platform-sdk/${version}`,
      `my-app/1.2 platform-sdk/${version}`,
    ]);
  });
});
