import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlatformStack } from './platform-stack.ts';
import { stackSettingsOf } from './stack-settings.ts';

const app = new App();
// AWS's own security rules on every synth and deploy: a finding not acknowledged (with its reason,
// beside the construct it is about) fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const { stackName, props } = stackSettingsOf((key) => app.node.tryGetContext(key));

// The CLI's account and region when it has them; otherwise the template stays environment-agnostic.
new PlatformStack(app, stackName, {
  ...props,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
