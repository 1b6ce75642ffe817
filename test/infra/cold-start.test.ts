import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { buildProxyEvent } from '#infra/local/proxy-event.ts';
import { matchRequest } from '#infra/local/router.ts';
import { type CountingProxy, startCountingProxy } from '../support/counting-proxy.ts';
import {
  functionsOf,
  invokeCold,
  LAMBDA_RUNTIME_VARIABLES,
  lambdaEnvironment,
  type SynthesizedFunction,
} from '../support/lambda-bundles.ts';
import { synthesizedAssembly } from '../support/synthesized-stack.ts';
import { newCaller } from '../support/users.ts';

// A cold start of the synthesized create-project bundle, as Lambda makes one, in front of the
// test run's DynamoDB Local through a proxy that counts connections. A keyed POST makes two calls
// (the counting write on the no-retry client, then the project on the retrying one); both clients
// share one HTTP handler, so one connection carries both. The same cold starts show which
// credentials the bundle signed with: the Lambda bundles resolve them with infra/lambda/credentials.ts.

let createProject: SynthesizedFunction;
let proxy: CountingProxy;

beforeAll(async () => {
  const name = describeFunction('create-project');
  const found = functionsOf(await synthesizedAssembly(), 'PlatformStack').find((fn) => fn.name === name);
  if (!found) throw new Error(`No function ${name} in the template`);
  createProject = found;
}, 300_000);

beforeEach(async () => {
  proxy = await startCountingProxy(new URL(process.env.DYNAMODB_ENDPOINT ?? ''));
});

afterEach(() => proxy.close());

async function keyedPost(): Promise<unknown> {
  const { key } = await newCaller();
  return buildProxyEvent(
    {
      method: 'POST',
      target: new URL('http://localhost/v1/projects'),
      rawHeaders: ['Content-Type', 'application/json', 'Authorization', `Bearer ${key}`],
      body: Buffer.from(JSON.stringify({ name: 'cold' })),
      sourceIp: '203.0.113.9',
    },
    matchRequest('POST', '/v1/projects'),
  );
}

/** The access key ids and session tokens the proxied requests were signed with. */
function signedWith(sent: string): { keys: string[]; tokens: string[] } {
  const all = (pattern: RegExp) => [...new Set([...sent.matchAll(pattern)].map((match) => match[1] ?? ''))];
  return {
    keys: all(/Credential=([^/]+)\//g),
    tokens: all(/x-amz-security-token: ([^\r\n]+)/gi),
  };
}

describe('a cold create-project function', () => {
  it('opens exactly one connection to DynamoDB for a keyed POST (two calls)', async () => {
    const env = lambdaEnvironment(createProject.variables, proxy.url);
    const { result } = await invokeCold(createProject.bundle, env, await keyedPost());
    expect(result.statusCode).toBe(201);
    expect(proxy.connections()).toBe(1);
    expect(proxy.sent().match(/POST \/ HTTP\/1\.1\r\n/g)).toHaveLength(2);
  }, 30_000);

  it("signs with the execution role's credentials from the environment", async () => {
    const env = lambdaEnvironment(createProject.variables, proxy.url);
    const { result } = await invokeCold(createProject.bundle, env, await keyedPost());
    expect(result.statusCode).toBe(201);
    expect(signedWith(proxy.sent())).toEqual({
      keys: [LAMBDA_RUNTIME_VARIABLES.AWS_ACCESS_KEY_ID],
      tokens: [LAMBDA_RUNTIME_VARIABLES.AWS_SESSION_TOKEN],
    });
  }, 30_000);

  it('signs with credentials from the container endpoint when the environment has none', async () => {
    const requests: IncomingHttpHeaders[] = [];
    const endpoint: Server = createServer((req, res) => {
      requests.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          AccessKeyId: 'ASIACONTAINERROLE',
          SecretAccessKey: 'container-role-secret',
          Token: 'container-role-session',
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const { AWS_REGION, AWS_DEFAULT_REGION } = LAMBDA_RUNTIME_VARIABLES;
      const env = lambdaEnvironment(createProject.variables, proxy.url, {
        AWS_REGION,
        AWS_DEFAULT_REGION,
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${port}/2018-06-01/credentials`,
        AWS_CONTAINER_AUTHORIZATION_TOKEN: 'container-authorization',
      });
      const { result } = await invokeCold(createProject.bundle, env, await keyedPost());
      expect(result.statusCode).toBe(201);
      expect(signedWith(proxy.sent())).toEqual({
        keys: ['ASIACONTAINERROLE'],
        tokens: ['container-role-session'],
      });
      // Fetched once for both calls, with the container's token.
      expect(requests.map((headers) => headers.authorization)).toEqual(['container-authorization']);
    } finally {
      await new Promise((resolve) => endpoint.close(resolve));
    }
  }, 30_000);

  it('fails its cold start naming the missing variables when neither source is set', async () => {
    const { AWS_REGION } = LAMBDA_RUNTIME_VARIABLES;
    const env = lambdaEnvironment(createProject.variables, proxy.url, { AWS_REGION });
    await expect(invokeCold(createProject.bundle, env, await keyedPost())).rejects.toThrow(
      'No AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, nor is AWS_CONTAINER_CREDENTIALS_FULL_URI.',
    );
    expect(proxy.connections()).toBe(0);
  }, 30_000);
});
