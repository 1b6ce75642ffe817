import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, type CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

// WAF's own log of every request it evaluated (the rule that matched, the action, the request's
// headers and path), into CloudWatch Logs for the stack's retention. WAF only writes to log groups
// whose name starts with `aws-waf-logs-`. The Authorization header is redacted: it carries the
// callers' API keys. Nothing is logged without traffic; CloudWatch bills the lines as vended logs
// (docs/costs.md).

export interface WafLoggingProps {
  webAcl: CfnWebACL;
  /** The log group's name after the prefix (the stack's name, so one per stage). */
  name: string;
  retention: RetentionDays;
}

/** Headers whose values never reach WAF's log. */
export const REDACTED_HEADERS = ['authorization'] as const;

export class WafLogging extends Construct {
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: WafLoggingProps) {
    super(scope, id);
    const logGroupName = `aws-waf-logs-${props.name}`;
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName,
      retention: props.retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // WAF wants the log group's ARN without the `:*` that CloudFormation's Arn attribute ends in.
    const logGroupArn = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const configuration = new CfnLoggingConfiguration(this, 'Configuration', {
      resourceArn: props.webAcl.attrArn,
      logDestinationConfigs: [logGroupArn],
      redactedFields: REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
    });
    configuration.node.addDependency(this.logGroup);
  }
}
