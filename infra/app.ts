import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlatformStack } from './platform-stack.ts';
import { regionOf, stackSettingsOf } from './stack-settings.ts';

const app = new App();
// AWS's own security rules on every synth and deploy: a finding not acknowledged (with its reason,
// beside the construct it is about) fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const read = (key: string): unknown => app.node.tryGetContext(key);

try {
  const { stackName, props } = stackSettingsOf(read);
  // The region is explicit (infra/stack-settings.ts): the template names it. The account is the
  // CLI's when it has credentials; otherwise the template leaves it to the deploy.
  new PlatformStack(app, stackName, {
    ...props,
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: regionOf(read, process.env) },
  });
} catch (error) {
  // A setting that is wrong or missing: one line, not a stack trace.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
