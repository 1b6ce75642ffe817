import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * What cdk-nag's AWS Solutions rules ask of an API that this design answers another way: on each REST
 * API of the root stack, and on each route family's import of it, where the family's methods are.
 */
export function acknowledgeApiFindings(api: IConstruct): void {
  const why = {
    'AwsSolutions-APIG4':
      'Authorization is the API key of the contract (Authorization: Bearer), checked by each function against DynamoDB with its own rate limit; public rows (health, auth, docs) are public by design',
    'AwsSolutions-COG4':
      'No Cognito: clients authenticate with the API keys the contract defines, which users create, list and revoke through the API',
    'AwsSolutions-APIG2':
      "Every input (path, query, headers, body, its size and type) is validated by zod in the function, which answers the contract's JSON errors; API Gateway's validators cannot",
    'AwsSolutions-APIG6':
      'JSON access logs are on for every stage and each function logs one line per request; execution logs would repeat them into a log group API Gateway creates without retention',
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]':
      "The account's API Gateway logging role (needed for access logs) with the policy AWS provides for exactly that",
  };
  for (const [id, reason] of Object.entries(why)) Validations.of(api).acknowledge({ id, reason });
}
