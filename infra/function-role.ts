import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A function's execution role that may write to its own log group and nothing else yet (grants add
 * the rest). Lambda's default, the AWSLambdaBasicExecutionRole managed policy, may create and write
 * every log group in the account.
 */
export function functionRole(scope: Construct, id: string, logGroup: ILogGroup): Role {
  const role = new Role(scope, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grantWrite(role);
  return role;
}
