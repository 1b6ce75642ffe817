import { join } from 'node:path';
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { functionRole } from '../access/function-role.ts';
import { FUNCTION_BUNDLING, repoRoot } from '../api/endpoint-function.ts';
import { handlerEntry } from '../handler-entries.ts';

export interface ConsumerFunctionProps {
  /** `functions/<feature>/<handler>.ts`, a row of shared/consumers.ts. */
  handler: string;
  /** What it belongs to, for its description: `<area>: <handler>`. */
  area: string;
  timeout: Duration;
  logRetention: RetentionDays;
}

/**
 * A consumer's function (shared/consumers.ts) with the endpoints' defaults: runtime, architecture,
 * bundling, its own log group and a role that may write only there, active tracing. Its grants and
 * its event source are its construct's.
 */
export function consumerFunction(scope: Construct, id: string, props: ConsumerFunctionProps): NodejsFunction {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return new NodejsFunction(scope, id, {
    description: `${props.area}: ${props.handler}`,
    entry: handlerEntry(props.handler),
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    timeout: props.timeout,
    memorySize: 256,
    logGroup,
    role: functionRole(scope, `${id}Role`, logGroup),
    tracing: Tracing.ACTIVE,
    bundling: FUNCTION_BUNDLING,
  });
}
