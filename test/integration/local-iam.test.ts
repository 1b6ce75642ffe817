import { grantsOf } from '#infra/access/grants.ts';
import { lambdaContext } from '#infra/local/gateway.ts';
import { runAs } from '#infra/local/iam/principal.ts';
import { tableName } from '#shared/db/tables.ts';
import { routes } from '#shared/routes.ts';
import { handler } from '../../functions/projects/get-project.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { proxyEvent } from '../support/proxy-events.ts';
import { newProject } from '../support/resources.ts';
import { newCaller } from '../support/users.ts';

// The local run refuses what a function's role would not allow, the way AWS does: a route whose row
// is narrowed by one grant fails as it would in Lambda (a 500 to its caller) with AWS's
// AccessDeniedException in its log line, naming the action and the resource.

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

it("answers 500 when a row's grant is narrowed by hand, and logs the refused action on its table", async () => {
  const caller = await newCaller();
  const project = await newProject(gateway.baseUrl, caller.key);

  const row = routes.find((route) => route.handler === 'get-project');
  if (!row) throw new Error('no get-project row');
  // The row as someone might narrow it: its projects grant gone, everything else as it is.
  const narrowed = { ...row, tables: { ...row.tables, projects: [] } };
  const event = proxyEvent({
    method: 'GET',
    resource: '/projects/{id}',
    path: `/projects/${project.id}`,
    pathParameters: { id: project.id },
    headers: { Authorization: `Bearer ${caller.key}` },
  });
  const invoke = (grants: ReturnType<typeof grantsOf>) =>
    captureLogs(() => runAs({ name: 'get-project', grants }, () => handler(event, lambdaContext(row))));

  const refused = await invoke(grantsOf(narrowed));
  const allowed = await invoke(grantsOf(row));

  expect({ refused: refused.result.statusCode, allowed: allowed.result.statusCode }).toEqual({
    refused: 500,
    allowed: 200,
  });
  expect(JSON.parse(refused.result.body)).toEqual({
    error: 'internal_error',
    message: expect.any(String),
  });
  const logged = refused.lines.map(
    (line) => JSON.parse(line) as { error?: { name: string; message: string } },
  );
  expect(logged.flatMap((line) => (line.error ? [line.error] : []))).toEqual([
    {
      name: 'AccessDeniedException',
      message:
        'User: arn:aws:sts::000000000000:assumed-role/get-project/get-project is not authorized to perform: ' +
        `dynamodb:GetItem on resource: arn:aws:dynamodb:local:000000000000:table/${tableName('projects')} ` +
        'because no identity-based policy allows the dynamodb:GetItem action',
      stack: expect.any(String),
    },
  ]);
});

it('serves every route through the gateway with its own grants: a read of a project is allowed', async () => {
  const caller = await newCaller();
  const project = await newProject(gateway.baseUrl, caller.key);
  const response = await call(`${gateway.baseUrl}/projects/${project.id}`, { key: caller.key });
  expect(response.status).toBe(200);
});
