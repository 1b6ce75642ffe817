import { request } from 'node:http';
import { checkAccess } from './access-check.ts';
import { clock } from './clock.ts';
import { variable } from './variables.ts';

// Secrets reach a function by name, never by value. In AWS a function's environment holds the
// secret's ARN (`<VARIABLE>_ARN`), and the value comes from the AWS Parameters and Secrets Lambda
// Extension, a layer that answers on localhost and caches Secrets Manager for a minute: no SDK
// client in the bundle, no value in the function's configuration, and a rotation reaches every
// container within SECRET_REFRESH_SECONDS plus the extension's minute, without a redeploy. Locally
// (`npm start`, tests) the variable itself holds the value.

/** Every secret a function may be given, by the variable that names it. */
export const secrets = {
  /** HMAC key of the list cursors (shared/db/cursor.ts); rotated, the previous key still verifies. */
  cursorKey: 'CURSOR_SECRET',
  /** Seed of the Ed25519 key that signs API keys' identity fields (shared/domain/key-identity.ts). */
  keySigningSeed: 'KEY_SIGNING_SEED',
} as const;

export type SecretName = keyof typeof secrets;

/** The variable that carries a secret's ARN in AWS. */
export const arnVariableOf = (name: SecretName): string => `${secrets[name]}_ARN`;

/** A secret's value now and, after a rotation, the value before it (Secrets Manager's AWSPREVIOUS). */
export interface SecretVersions {
  current: string;
  previous?: string;
}

/** How long a container keeps a value before it asks the extension again. */
const SECRET_REFRESH_MS = 4 * 60 * 1000;
/** How soon after a fetch `refresh` may ask again: a flood of bad cursors must not become a flood of calls. */
const SECRET_MIN_REFETCH_MS = 30 * 1000;
/** The extension answers from its cache or one Secrets Manager call; a stalled one must not hold a request. */
const EXTENSION_TIMEOUT_MS = 2_000;

interface Cached {
  versions: Promise<SecretVersions>;
  fetchedAt: number;
}

const cache = new Map<SecretName, Cached>();

/**
 * A secret's versions, fetched once and kept for a few minutes. With `refresh`, asks again unless the
 * value is younger than half a minute: for a caller whose check failed with the versions it had.
 */
export function secretVersions(
  name: SecretName,
  options: { refresh?: boolean } = {},
): Promise<SecretVersions> {
  // Asked at every read, not only at a fetch: a value kept here must not reach a function that may
  // not read it (locally, every function shares this process's cache).
  checkAccess({
    action: 'secretsmanager:GetSecretValue',
    resource: { service: 'secretsmanager', secret: name },
  });
  const now = clock.now();
  const cached = cache.get(name);
  const age = cached ? now - cached.fetchedAt : Number.POSITIVE_INFINITY;
  if (cached && age < (options.refresh ? SECRET_MIN_REFETCH_MS : SECRET_REFRESH_MS)) return cached.versions;

  const versions = load(name);
  cache.set(name, { versions, fetchedAt: now });
  // A failed fetch is not kept: the next request tries again.
  versions.catch(() => {
    if (cache.get(name)?.versions === versions) cache.delete(name);
  });
  return versions;
}

async function load(name: SecretName): Promise<SecretVersions> {
  const arn = variable(arnVariableOf(name));
  if (!arn) {
    const value = variable(secrets[name]);
    if (!value) throw new Error(`Missing ${secrets[name]} (or ${arnVariableOf(name)} in AWS)`);
    return { current: value, ...previousFromEnv(name) };
  }
  const [current, previous] = await Promise.all([
    fromExtension(arn, 'AWSCURRENT'),
    // Absent until the secret is first rotated: the extension then answers with an error.
    fromExtension(arn, 'AWSPREVIOUS').catch(() => undefined),
  ]);
  return { current, ...(previous === undefined ? {} : { previous }) };
}

/** Locally, `<VARIABLE>_PREVIOUS` stands for AWSPREVIOUS (to try a rotation by hand). */
function previousFromEnv(name: SecretName): { previous?: string } {
  const previous = variable(`${secrets[name]}_PREVIOUS`);
  return previous ? { previous } : {};
}

function fromExtension(arn: string, versionStage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string> {
  const port = Number(variable('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT') ?? 2773);
  const path = `/secretsmanager/get?secretId=${encodeURIComponent(arn)}&versionStage=${versionStage}`;
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        path,
        // The extension accepts only callers that hold the function's session token.
        headers: { 'X-Aws-Parameters-Secrets-Token': variable('AWS_SESSION_TOKEN') ?? '' },
        timeout: EXTENSION_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) {
            reject(new Error(`Secrets extension answered ${response.statusCode} for ${versionStage}`));
            return;
          }
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { SecretString?: unknown };
            if (typeof body.SecretString !== 'string' || body.SecretString === '') {
              throw new Error('no SecretString');
            }
            resolve(body.SecretString);
          } catch (error) {
            reject(new Error(`Secrets extension gave an unreadable answer: ${(error as Error).message}`));
          }
        });
        response.on('error', reject);
      },
    );
    call.on('timeout', () => call.destroy(new Error('Secrets extension did not answer in time')));
    call.on('error', reject);
    call.end();
  });
}

/** Forgets every fetched value (tests that rotate a secret). */
export function forgetSecrets(): void {
  cache.clear();
}
