import { App } from 'aws-cdk-lib';
import { PlatformStack } from './platform-stack.ts';
import { stackSettingsOf } from './stack-settings.ts';

const app = new App();
const { stackName, props } = stackSettingsOf((key) => app.node.tryGetContext(key));

// The CLI's account and region when it has them; otherwise the template stays environment-agnostic.
new PlatformStack(app, stackName, {
  ...props,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
