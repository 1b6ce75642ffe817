import { type Stack, Token } from 'aws-cdk-lib';
import {
  ParamsAndSecretsLayerVersion,
  type ParamsAndSecretsOptions,
  ParamsAndSecretsVersions,
} from 'aws-cdk-lib/aws-lambda';
import { Fact, FactName } from 'aws-cdk-lib/region-info';

// The AWS Parameters and Secrets Lambda Extension (arm64), which serves the secrets on localhost
// (shared/secrets.ts). AWS publishes one layer per region; CDK's table knows most regions, not all
// (in 2.276 not ca-west-1, il-central-1, mx-central-1, eu-central-2, ap-south-2, me-central-1,
// ap-southeast-4/5/6/7 among others), and for those `-c secretsExtensionLayerArn=...` names the layer.
// No map of our own: the ARNs of those regions could not be confirmed from here, and a wrong one fails
// only at deploy time.

const VERSION = ParamsAndSecretsVersions.V1_0_103;
const LAYER_ARN =
  /^arn:aws[a-z-]*:lambda:([a-z0-9-]+):\d{12}:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:\d+$/;

/**
 * The extension's layer for `stack`'s region: the ARN given (checked: arm64, the stack's region), else
 * CDK's table. An environment-agnostic stack (the tests) gets CDK's table as a mapping by region.
 */
export function secretsExtensionLayer(
  stack: Stack,
  layerArn: string | undefined,
  options: ParamsAndSecretsOptions,
): ParamsAndSecretsLayerVersion {
  const region = stack.region;
  if (layerArn !== undefined) {
    const match = LAYER_ARN.exec(layerArn);
    if (!match) {
      throw new Error(
        `-c secretsExtensionLayerArn=${layerArn}: not an arm64 AWS-Parameters-and-Secrets-Lambda-Extension-Arm64 layer version ARN`,
      );
    }
    if (!Token.isUnresolved(region) && match[1] !== region) {
      throw new Error(
        `-c secretsExtensionLayerArn=${layerArn}: the layer is in ${match[1]}, the stack in ${region}`,
      );
    }
    return ParamsAndSecretsLayerVersion.fromVersionArn(layerArn, options);
  }
  if (
    !Token.isUnresolved(region) &&
    Fact.find(region, FactName.paramsAndSecretsLambdaLayer(VERSION, 'arm64')) === undefined
  ) {
    throw new Error(
      `No Parameters and Secrets extension layer known for ${region} (arm64): pass -c secretsExtensionLayerArn=<the AWS-Parameters-and-Secrets-Lambda-Extension-Arm64 layer version ARN AWS publishes for ${region}>`,
    );
  }
  return ParamsAndSecretsLayerVersion.fromVersion(VERSION, options);
}
