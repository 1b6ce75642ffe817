import { KMS_KEY_VARIABLE } from '#shared/runtime/envelope.ts';
import { arnVariableOf, type SecretName, secrets } from '#shared/runtime/secrets.ts';
import { startKmsStandIn } from '../support/kms-stand-in.ts';
import { LAMBDA_RUNTIME_VARIABLES } from '../support/lambda-bundles.ts';
import { startSecretsExtension } from '../support/secrets-extension.ts';
import { startSqsStandIn } from '../support/sqs-stand-in.ts';

// What a bundle reaches in AWS besides DynamoDB, on loopback: the Parameters and Secrets extension
// (secrets by ARN), SQS (the webhook queue) and KMS (the environment variables' key). With them
// every function's invocation does its real work: a list signs its cursor, login signs its key, the
// test ping is enqueued, a variable is sealed.

export interface StandIns {
  /** The variables of a function's environment that point it at the stand-ins (only those it has). */
  environmentFor(variables: Record<string, unknown>): Record<string, string>;
  close(): Promise<void>;
}

const arnOf = (name: SecretName) => `arn:aws:secretsmanager:eu-west-1:000000000000:secret:bench-${name}`;

export async function startStandIns(): Promise<StandIns> {
  const [extension, queue] = await Promise.all([startSecretsExtension(), startSqsStandIn()]);
  // KMS checks each request's signature: the role's credentials the functions get, and the session
  // token the extension hands out (environmentFor below).
  const kms = await startKmsStandIn({
    accessKeyId: LAMBDA_RUNTIME_VARIABLES.AWS_ACCESS_KEY_ID,
    secretAccessKey: LAMBDA_RUNTIME_VARIABLES.AWS_SECRET_ACCESS_KEY,
    sessionToken: extension.sessionToken,
    region: LAMBDA_RUNTIME_VARIABLES.AWS_REGION,
  });
  // The seed is this process's, so that keys it issues are genuine to the bundles.
  extension.put(arnOf('keySigningSeed'), process.env[secrets.keySigningSeed] ?? '');
  extension.put(arnOf('cursorKey'), 'bench-cursor-key');
  const known: Record<string, string> = {
    WEBHOOK_QUEUE_URL: queue.url,
    PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(extension.port),
    [arnVariableOf('keySigningSeed')]: arnOf('keySigningSeed'),
    [arnVariableOf('cursorKey')]: arnOf('cursorKey'),
    [KMS_KEY_VARIABLE]: 'arn:aws:kms:eu-west-1:000000000000:key/bench',
  };
  return {
    environmentFor(variables) {
      const wanted = Object.entries(known).filter(([name]) => name in variables);
      // The extension answers only the session token of the function's own role.
      return {
        ...Object.fromEntries(wanted),
        ...(KMS_KEY_VARIABLE in variables ? { AWS_ENDPOINT_URL_KMS: kms.endpoint } : {}),
        AWS_SESSION_TOKEN: extension.sessionToken,
      };
    },
    close: async () => {
      await Promise.all([extension.close(), queue.close(), kms.close()]);
    },
  };
}
