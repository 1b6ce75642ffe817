import { join } from 'node:path';
import { type CfnResource, CustomResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Architecture, ParamsAndSecretsLogLevel, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { arnVariableOf } from '#shared/runtime/secrets.ts';
import { functionRole } from '../access/function-role.ts';
import { secretsExtensionLayer } from '../access/secrets-extension.ts';
import { FUNCTION_BUNDLING, repoRoot } from '../api/endpoint-function.ts';

export interface KeySigningPublicKeyProps {
  /** The seed the public key is made from; only this resource's function may read it. */
  seed: ISecret;
  /** Its one property: a new value after a rotation makes CloudFormation run it again. */
  seedVersion: string;
  /** The secrets extension's layer ARN the stack was given (infra/access/secrets-extension.ts). */
  secretsExtensionLayerArn: string | undefined;
  /** Makes a log group in the stack (the function's, the provider's). */
  logGroup: (id: string) => ILogGroup;
}

/**
 * The public half of the key-signing seed, made at deploy time by a custom resource in `scope` that
 * may read the seed (its handler is ./key-signing-public-key.ts): the verifying functions get it as
 * a plain variable, and never the seed. Returns the attribute that holds the published keys.
 */
export function keySigningPublicKey(scope: Construct, props: KeySigningPublicKeyProps): string {
  const onEventLogs = props.logGroup('KeySigningPublicKeyLogs');
  const onEvent = new NodejsFunction(scope, 'KeySigningPublicKeyFunction', {
    description: 'Custom resource: the public key of the key-signing seed',
    entry: join(repoRoot, 'infra', 'custom-resources', 'key-signing-public-key.ts'),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    timeout: Duration.seconds(30),
    // No cache in its extension: a deploy right after a rotation must read the new seed.
    paramsAndSecrets: secretsExtensionLayer(Stack.of(scope), props.secretsExtensionLayerArn, {
      secretsManagerTtl: Duration.seconds(0),
      logLevel: ParamsAndSecretsLogLevel.WARN,
    }),
    environment: { [arnVariableOf('keySigningSeed')]: props.seed.secretArn },
    bundling: FUNCTION_BUNDLING,
    logGroup: onEventLogs,
    role: functionRole(scope, 'KeySigningPublicKeyRole', onEventLogs),
  });
  props.seed.grantRead(onEvent);
  const provider = new Provider(scope, 'KeySigningPublicKeyProvider', {
    onEventHandler: onEvent,
    logGroup: props.logGroup('KeySigningPublicKeyProviderLogs'),
  });
  Validations.of(provider).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: "CDK's provider framework function builds its own role; it runs only during deploys",
  });
  Validations.of(provider).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${Stack.of(scope).resolve((onEvent.node.defaultChild as CfnResource).logicalId)}.Arn>:*]`,
    reason: 'The provider framework invokes the one onEvent function, any of its versions',
  });
  const publicKey = new CustomResource(scope, 'KeySigningPublicKey', {
    serviceToken: provider.serviceToken,
    resourceType: 'Custom::KeySigningPublicKey',
    properties: { SeedVersion: props.seedVersion },
  });
  return publicKey.getAttString('PublicKeys');
}
