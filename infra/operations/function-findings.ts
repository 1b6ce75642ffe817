import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * What cdk-nag's AWS Solutions rules ask of the functions' roles that this design answers another
 * way: the few actions that take no resource-level permissions.
 */
export function acknowledgeFunctionFindings(stack: IConstruct): void {
  Validations.of(stack).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      "X-Ray's PutTraceSegments and PutTelemetryRecords (active tracing) and ListStreams (the stream consumers' event sources) take no resource-level permissions; a template test checks that no other grant is on *",
  });
}
