import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultProvider } from '#infra/lambda/credentials.ts';

// The Lambda bundles' credential chain against a stand-in container credentials endpoint on
// loopback, the way Lambda modes without credentials in the environment serve them.

const CHAIN_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE',
];

/** Exactly these chain variables for one test (the others unset); the previous values come back after it. */
function useEnvironment(values: Record<string, string>): void {
  for (const name of CHAIN_VARIABLES) {
    const value = values[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

const saved = Object.fromEntries(CHAIN_VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

interface StandIn {
  url: string;
  /** The headers of every request it received, in order. */
  requests: IncomingHttpHeaders[];
  /** What it answers next; the last one keeps being answered. */
  answers: { status: number; body: unknown }[];
}

let server: Server;
let endpoint: StandIn;

beforeAll(async () => {
  server = createServer((req, res) => {
    endpoint.requests.push(req.headers);
    const answer = endpoint.answers.length > 1 ? endpoint.answers.shift() : endpoint.answers[0];
    res.writeHead(answer?.status ?? 500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer?.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

// A new URL for every test: the chain keeps one provider per URL for the whole process.
let endpoints = 0;
beforeEach(() => {
  const { port } = server.address() as AddressInfo;
  endpoints++;
  endpoint = {
    url: `http://127.0.0.1:${port}/2018-06-01/credentials/${endpoints}`,
    requests: [],
    answers: [],
  };
});

const inOneHour = () => new Date(Date.now() + 60 * 60_000).toISOString();
const roleCredentials = (expiration: string) => ({
  AccessKeyId: 'ASIACONTAINER',
  SecretAccessKey: 'container-secret',
  Token: 'container-session',
  AccountId: '123456789012',
  Expiration: expiration,
});

describe('the Lambda credential chain', () => {
  it("takes the execution role's credentials from the environment, before any endpoint", async () => {
    useEnvironment({
      AWS_ACCESS_KEY_ID: 'ASIAENVIRONMENT',
      AWS_SECRET_ACCESS_KEY: 'environment-secret',
      AWS_SESSION_TOKEN: 'environment-session',
      AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url,
    });
    const provide = defaultProvider();
    expect(await provide()).toEqual({
      accessKeyId: 'ASIAENVIRONMENT',
      secretAccessKey: 'environment-secret',
      sessionToken: 'environment-session',
    });
    expect(endpoint.requests).toEqual([]);
  });

  it('fetches them from the container endpoint with its token when the environment has none, once', async () => {
    const expiration = inOneHour();
    endpoint.answers = [{ status: 200, body: roleCredentials(expiration) }];
    useEnvironment({
      AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url,
      AWS_CONTAINER_AUTHORIZATION_TOKEN: 'container-token',
    });
    const provide = defaultProvider();
    const [first, concurrent] = await Promise.all([provide(), provide()]);
    const later = await provide();
    expect(first).toEqual({
      accessKeyId: 'ASIACONTAINER',
      secretAccessKey: 'container-secret',
      sessionToken: 'container-session',
      expiration: new Date(expiration),
    });
    expect(concurrent).toBe(first);
    expect(later).toBe(first);
    expect(endpoint.requests.map((headers) => headers.authorization)).toEqual(['container-token']);
  });

  it('gives every client the same provider: one fetch for the whole container', async () => {
    endpoint.answers = [{ status: 200, body: roleCredentials(inOneHour()) }];
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url });
    const [retrying, counting] = [defaultProvider(), defaultProvider()];
    expect(counting).toBe(retrying);
    await Promise.all([retrying(), counting()]);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('prefers the token file to the token variable, reading it on every fetch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lambda-credentials-'));
    try {
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, 'token-from-file\n');
      endpoint.answers = [{ status: 200, body: roleCredentials(inOneHour()) }];
      useEnvironment({
        AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url,
        AWS_CONTAINER_AUTHORIZATION_TOKEN: 'token-from-variable',
        AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile,
      });
      await defaultProvider()();
      expect(endpoint.requests.map((headers) => headers.authorization)).toEqual(['token-from-file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fetches again when the credentials are within five minutes of expiring', async () => {
    const soon = new Date(Date.now() + 4 * 60_000).toISOString();
    const later = inOneHour();
    endpoint.answers = [
      { status: 200, body: roleCredentials(soon) },
      { status: 200, body: roleCredentials(later) },
    ];
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url });
    const provide = defaultProvider();
    expect((await provide()).expiration).toEqual(new Date(soon));
    expect((await provide()).expiration).toEqual(new Date(later));
    expect((await provide()).expiration).toEqual(new Date(later));
    expect(endpoint.requests).toHaveLength(2);
  });

  it('retries an endpoint that fails with a 5xx', async () => {
    endpoint.answers = [
      { status: 503, body: {} },
      { status: 200, body: roleCredentials(inOneHour()) },
    ];
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url });
    expect((await defaultProvider()()).accessKeyId).toBe('ASIACONTAINER');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('rejects a refusal without retrying, and asks again on the next call', async () => {
    endpoint.answers = [
      { status: 403, body: { message: 'no' } },
      { status: 200, body: roleCredentials(inOneHour()) },
    ];
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url });
    const provide = defaultProvider();
    await expect(provide()).rejects.toThrow(
      /container credentials endpoint \(http:\/\/127\.0\.0\.1:\d+\) answered 403/,
    );
    expect(endpoint.requests).toHaveLength(1);
    expect((await provide()).accessKeyId).toBe('ASIACONTAINER');
  });

  it('rejects an answer without credentials', async () => {
    endpoint.answers = [{ status: 200, body: { Code: 'Success' } }];
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url });
    await expect(defaultProvider()()).rejects.toThrow('answered without AccessKeyId and SecretAccessKey');
  });

  it('fails when it is built (the cold start) naming the variables, when neither source is set', () => {
    useEnvironment({});
    expect(() => defaultProvider()).toThrow(
      'No AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, nor is AWS_CONTAINER_CREDENTIALS_FULL_URI.',
    );
  });

  it('names only the missing half of a key pair', () => {
    useEnvironment({ AWS_ACCESS_KEY_ID: 'ASIAENVIRONMENT' });
    expect(() => defaultProvider()).toThrow(
      'No AWS credentials: AWS_SECRET_ACCESS_KEY is not set, nor is AWS_CONTAINER_CREDENTIALS_FULL_URI.',
    );
  });

  it('refuses a plain-HTTP endpoint off the host when it is built', () => {
    useEnvironment({ AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://credentials.example.com/role' });
    expect(() => defaultProvider()).toThrow('AWS_CONTAINER_CREDENTIALS_FULL_URI must be HTTPS');
  });
});
