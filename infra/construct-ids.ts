import { CfnResource } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

// How the stack names its constructs, and keeps the logical ids of those that hold data.

/** `list-projects` -> `ListProjects`, `apiKeys` -> `ApiKeys`: stable construct ids. */
export function pascalCase(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * Keeps a stateful resource's logical id whatever its construct is called: CloudFormation replaces a
 * resource whose logical id changes, which for a table means a new, empty one.
 */
export function pinLogicalId(construct: Construct, logicalId: string): void {
  const resource = construct.node.defaultChild;
  if (!(resource instanceof CfnResource))
    throw new Error(`${construct.node.path} has no CloudFormation resource`);
  resource.overrideLogicalId(logicalId);
}
