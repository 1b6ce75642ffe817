import { App } from 'aws-cdk-lib';
import { PlatformStack } from './platform-stack.ts';

const app = new App();

// The CLI's account and region when it has them; otherwise the template stays environment-agnostic.
new PlatformStack(app, 'PlatformStack', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
