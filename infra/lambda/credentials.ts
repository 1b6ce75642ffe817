import { readFile } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';

// The credential chain of the Lambda bundles, in place of @aws-sdk/credential-provider-node: the
// CDK bundling aliases that package to this file (infra/api/endpoint-function.ts). The SDK's default
// chain also reads profiles, SSO, web identity, processes and the instance metadata service, with
// nested STS and SSO clients: a quarter of every bundle, none of which a Lambda function uses. The
// managed Node.js runtimes put the execution role's credentials in the environment; other Lambda
// modes serve them from a container credentials endpoint. Local runs, tests and scripts keep the
// SDK's chain.

/** What the SDK signs with (structurally its `AwsCredentialIdentity`). */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When the credentials stop working; absent for the environment's. */
  expiration?: Date;
}

export type CredentialProvider = () => Promise<Credentials>;

const ENV_ACCESS_KEY_ID = 'AWS_ACCESS_KEY_ID';
const ENV_SECRET_ACCESS_KEY = 'AWS_SECRET_ACCESS_KEY';
const ENV_SESSION_TOKEN = 'AWS_SESSION_TOKEN';
const ENV_CONTAINER_FULL_URI = 'AWS_CONTAINER_CREDENTIALS_FULL_URI';
const ENV_CONTAINER_TOKEN = 'AWS_CONTAINER_AUTHORIZATION_TOKEN';
const ENV_CONTAINER_TOKEN_FILE = 'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE';

/** Credentials are fetched again this long before they expire (the SDK's own margin). */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** The endpoint is on the same host: a second is ample, and three tries ride out a restart of it. */
const ATTEMPT_TIMEOUT_MS = 1_000;
const ATTEMPTS = 3;

/**
 * The SDK's entry point (`defaultProvider`), called once per client when the client is built, that
 * is at cold start. Neither source configured is an error there, naming the variables, rather
 * than a failure on every request.
 */
export function defaultProvider(): CredentialProvider {
  const env = process.env;
  const accessKeyId = env[ENV_ACCESS_KEY_ID];
  const secretAccessKey = env[ENV_SECRET_ACCESS_KEY];
  if (accessKeyId && secretAccessKey) {
    const sessionToken = env[ENV_SESSION_TOKEN];
    const credentials: Credentials = {
      accessKeyId,
      secretAccessKey,
      ...(sessionToken ? { sessionToken } : {}),
    };
    return async () => credentials;
  }
  const fullUri = env[ENV_CONTAINER_FULL_URI];
  if (fullUri) return sharedContainerProvider(fullUri);
  const missing = [ENV_ACCESS_KEY_ID, ENV_SECRET_ACCESS_KEY].filter((name) => !env[name]).join(' and ');
  throw new Error(
    `No AWS credentials: ${missing} ${missing.includes(' and ') ? 'are' : 'is'} not set, nor is ${ENV_CONTAINER_FULL_URI}. ` +
      "Lambda's Node.js runtime sets the first two (with AWS_SESSION_TOKEN) from the execution role.",
  );
}

/**
 * The endpoint's URL, accepted on the same terms as the SDK's container provider: HTTPS anywhere,
 * plain HTTP only on loopback or the ECS/EKS link-local hosts, so that credentials never cross a
 * network in clear text.
 */
function containerEndpoint(fullUri: string): URL {
  const url = URL.parse(fullUri);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(`${ENV_CONTAINER_FULL_URI} is not an http(s) URL: ${fullUri}`);
  }
  if (url.protocol === 'https:' || isLocalHost(url.hostname)) return url;
  throw new Error(
    `${ENV_CONTAINER_FULL_URI} must be HTTPS, or HTTP on loopback or a container host (169.254.170.2, 169.254.170.23, [fd00:ec2::23]): ${fullUri}`,
  );
}

const CONTAINER_HOSTS = new Set(['169.254.170.2', '169.254.170.23', '[fd00:ec2::23]', 'localhost', '[::1]']);

function isLocalHost(hostname: string): boolean {
  return CONTAINER_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

// Each client asks for a provider (the service has two): they share one, so a cold start fetches once.
let shared: { fullUri: string; provider: CredentialProvider } | undefined;

function sharedContainerProvider(fullUri: string): CredentialProvider {
  if (shared?.fullUri !== fullUri)
    shared = { fullUri, provider: containerProvider(containerEndpoint(fullUri)) };
  return shared.provider;
}

/** Fetches on first use, then again when the credentials are about to expire; callers share one fetch. */
function containerProvider(url: URL): CredentialProvider {
  let cached: { credentials: Promise<Credentials>; refreshAt: number } | undefined;
  return () => {
    if (!cached || Date.now() >= cached.refreshAt) {
      const entry = { credentials: fetchWithRetries(url), refreshAt: Number.POSITIVE_INFINITY };
      cached = entry;
      entry.credentials.then(
        (credentials) => {
          if (credentials.expiration) entry.refreshAt = credentials.expiration.getTime() - REFRESH_MARGIN_MS;
        },
        () => {
          // A failed fetch is not kept: the next request tries again.
          if (cached === entry) cached = undefined;
        },
      );
    }
    return cached.credentials;
  };
}

async function fetchWithRetries(url: URL): Promise<Credentials> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchCredentials(url);
    } catch (error) {
      if (attempt >= ATTEMPTS || error instanceof CredentialsRefused) throw error;
    }
  }
}

/** The endpoint answered, and its answer is final (a 4xx or a body without credentials). */
class CredentialsRefused extends Error {}

async function fetchCredentials(url: URL): Promise<Credentials> {
  const headers = await authorizationHeader();
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const get = url.protocol === 'https:' ? httpsGet : httpGet;
    // The signal bounds the whole exchange, the body included.
    get(url, { headers, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) }, resolve).on('error', reject);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const status = response.statusCode ?? 0;
  const where = `the container credentials endpoint (${url.origin})`;
  if (status >= 500) throw new Error(`${where} answered ${status}`);
  if (status !== 200) throw new CredentialsRefused(`${where} answered ${status}`);
  return parseCredentials(Buffer.concat(chunks).toString('utf8'), where);
}

/** The token file wins over the variable, as in the SDK; the file is read each time because it rotates. */
async function authorizationHeader(): Promise<Record<string, string>> {
  const tokenFile = process.env[ENV_CONTAINER_TOKEN_FILE];
  const token = tokenFile ? (await readFile(tokenFile, 'utf8')).trim() : process.env[ENV_CONTAINER_TOKEN];
  return token ? { Authorization: token } : {};
}

function parseCredentials(text: string, where: string): Credentials {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new CredentialsRefused(`${where} answered with a body that is not JSON`);
  }
  const { AccessKeyId, SecretAccessKey, Token, Expiration } = body;
  if (typeof AccessKeyId !== 'string' || typeof SecretAccessKey !== 'string') {
    throw new CredentialsRefused(`${where} answered without AccessKeyId and SecretAccessKey`);
  }
  const expiration = typeof Expiration === 'string' ? new Date(Expiration) : undefined;
  return {
    accessKeyId: AccessKeyId,
    secretAccessKey: SecretAccessKey,
    ...(typeof Token === 'string' ? { sessionToken: Token } : {}),
    ...(expiration && !Number.isNaN(expiration.getTime()) ? { expiration } : {}),
  };
}
