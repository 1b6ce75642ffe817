import {
  type AddToPrincipalPolicyResult,
  PolicyDocument,
  type PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A role whose grants are statements of one inline policy (the role's `Policies`), not of a separate
 * AWS::IAM::Policy resource: the same privileges, one CloudFormation resource per function fewer.
 */
export class InlinePolicyRole extends Role {
  private readonly inline: PolicyDocument;

  constructor(scope: Construct, id: string, assumedBy: ServicePrincipal) {
    const inline = new PolicyDocument();
    super(scope, id, { assumedBy, inlinePolicies: { Grants: inline } });
    this.inline = inline;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.inline.addStatements(statement);
    // The statements are part of the role: whatever must wait for the grant waits for the role.
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * A function's execution role that may write to its own log group and nothing else yet (grants add
 * the rest). Lambda's default, the AWSLambdaBasicExecutionRole managed policy, may create and write
 * every log group in the account.
 */
export function functionRole(scope: Construct, id: string, logGroup: ILogGroup): Role {
  const role = new InlinePolicyRole(scope, id, new ServicePrincipal('lambda.amazonaws.com'));
  logGroup.grantWrite(role);
  return role;
}
