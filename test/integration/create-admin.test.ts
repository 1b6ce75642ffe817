import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';

const run = promisify(execFile);
const script = join(import.meta.dirname, '../../infra/scripts/create-admin.ts');
// What an operator has: the users table's name and a way to reach DynamoDB, nothing else.
const env = {
  PATH: process.env.PATH ?? '',
  USERS_TABLE: process.env.USERS_TABLE ?? '',
  DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
};

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

describe('npm run create-admin', () => {
  it('creates an admin with a generated password that logs in and may list users', async () => {
    const email = uniqueEmail('operator');
    const { stdout } = await run(process.execPath, [script, '--email', email], { env });
    const password = /Password \(shown once\): (\S+)/.exec(stdout)?.[1];
    expect(password).toBeDefined();

    const login = await call(`${gateway.backendUrl}/auth/login`, {
      method: 'POST',
      json: { email, password },
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email, role: 'admin' } });
    const key = (login.body as { apiKey: string }).apiKey;
    expect((await call(`${gateway.backendUrl}/api/v1/users`, { key })).status).toBe(200);

    const again = await run(process.execPath, [script, '--email', email], { env });
    expect(again.stdout).toContain('already exists');
  });

  it("refuses to run against AWS without the stack's region, saying so", async () => {
    const withoutRegion = { PATH: env.PATH, USERS_TABLE: env.USERS_TABLE };
    await expect(
      run(process.execPath, [script, '--email', uniqueEmail('operator')], { env: withoutRegion }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('AWS_REGION') });
  });

  it('refuses to run without an email', async () => {
    await expect(run(process.execPath, [script], { env })).rejects.toMatchObject({ code: 2 });
  });
});
