import { App, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { PlatformStack } from '#infra/platform-stack.ts';
import { stackSettingsOf } from '#infra/stack-settings.ts';

// cdk-nag's AWS Solutions rules, as `npm run synth` and `cdk deploy` run them (infra/app.ts): with
// the plugin on, synthesis throws while any finding is neither fixed nor acknowledged.

const checkedApp = () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
};

/** Every acknowledgement in the tree: the metadata maps `Annotation::<rule id>` to its reason. */
const acknowledgementsIn = (root: IConstruct): { path: string; id: string; reason: string }[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ path: construct.node.path, id, reason })),
  );

describe('cdk-nag (AWS Solutions)', () => {
  it.each([
    ['the default stack', undefined],
    ['a staging stage', 'staging'],
  ])('finds nothing unacknowledged in %s', (_, stage) => {
    const app = checkedApp();
    const { stackName, props } = stackSettingsOf((key) => (key === 'stage' ? stage : undefined));
    new PlatformStack(app, stackName, props);
    expect(() => app.synth()).not.toThrow();
  });

  it('fails the synth on a finding nobody acknowledged', () => {
    const app = checkedApp();
    const stack = new PlatformStack(app, 'PlatformStack');
    // A stray wide grant: the kind of change the checks exist to stop.
    new Role(stack, 'Stray', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }).addToPolicy(
      new PolicyStatement({ actions: ['dynamodb:*'], resources: [stack.tables.users.tableArn] }),
    );
    expect(() => app.synth()).toThrow(/AwsSolutions-IAM5\[Action::dynamodb:\*\]/);
  });

  it('gives every acknowledgement a reason', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new PlatformStack(app, 'PlatformStack');
    const acknowledged = acknowledgementsIn(stack);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledged) {
      expect({ path, id, reasonLength: reason.length > 40 }).toEqual({ path, id, reasonLength: true });
    }
  });
});
