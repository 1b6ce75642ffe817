import { App } from 'aws-cdk-lib';
import { PlatformStack, type PlatformStackProps } from '#infra/platform-stack.ts';
import { regionOf } from '#infra/stack-settings.ts';
import { flattenedStack, TEST_SYNTH_CONTEXT, testOutdir } from '../support/stack-templates.ts';

// The template names the region it is for, and the Parameters and Secrets extension's layer is the
// one published in that region: from CDK's table, or for a region the table lacks from the ARN given.

const contextOf =
  (values: Record<string, string>) =>
  (key: string): unknown =>
    values[key];

describe('the region', () => {
  it('comes from -c region, else AWS_REGION, else AWS_DEFAULT_REGION, never from the CLI default', () => {
    expect(regionOf(contextOf({ region: 'eu-west-1' }), { AWS_REGION: 'us-west-2' })).toBe('eu-west-1');
    expect(regionOf(contextOf({}), { AWS_REGION: 'ap-southeast-2', AWS_DEFAULT_REGION: 'us-west-2' })).toBe(
      'ap-southeast-2',
    );
    expect(regionOf(contextOf({}), { AWS_DEFAULT_REGION: 'ca-west-1' })).toBe('ca-west-1');
    expect(() => regionOf(contextOf({}), { CDK_DEFAULT_REGION: 'us-east-1' })).toThrow(
      'No region given: pass -c region=<region> (e.g. -c region=eu-west-1) or set AWS_REGION; the template names its region',
    );
    expect(() => regionOf(contextOf({ region: 'Ireland' }), {})).toThrow('Not a region: Ireland');
  });
});

/** The layers of the functions that read secrets, and every region the merged template names. */
function synthesizedFor(region: string, props: PlatformStackProps = {}) {
  const app = new App({ outdir: testOutdir(), context: TEST_SYNTH_CONTEXT });
  new PlatformStack(app, 'PlatformStack', { ...props, env: { region } });
  const template = flattenedStack(app, 'PlatformStack');
  const text = JSON.stringify(template);
  const layers = new Set(
    Object.values(template.Resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function')
      .flatMap((resource) => (resource.Properties?.Layers ?? []) as string[]),
  );
  return { layers: [...layers], regions: [...new Set(text.match(/\b[a-z]{2}-[a-z]+-\d\b/g))] };
}

describe('the secrets extension layer', () => {
  it.each([
    [
      'eu-west-1',
      'arn:aws:lambda:eu-west-1:015030872274:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:4',
    ],
    [
      'ap-southeast-2',
      'arn:aws:lambda:ap-southeast-2:665172237481:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:4',
    ],
  ])(
    "in %s is CDK's, and the template names no other region",
    (region, arn) => {
      expect(synthesizedFor(region)).toEqual({ layers: [arn], regions: [region] });
    },
    60_000,
  );

  it('in a region CDK does not know is the one given, and without one the synth says what to pass', () => {
    expect(() => synthesizedFor('ca-west-1')).toThrow(
      'No Parameters and Secrets extension layer known for ca-west-1 (arm64): pass -c secretsExtensionLayerArn=',
    );
    const given =
      'arn:aws:lambda:ca-west-1:123456789012:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:1';
    expect(synthesizedFor('ca-west-1', { secretsExtensionLayerArn: given })).toEqual({
      layers: [given],
      regions: ['ca-west-1'],
    });
    expect(() =>
      synthesizedFor('ca-west-1', {
        secretsExtensionLayerArn: given.replace(':ca-west-1:', ':eu-west-1:'),
      }),
    ).toThrow('the layer is in eu-west-1, the stack in ca-west-1');
    expect(() =>
      synthesizedFor('ca-west-1', { secretsExtensionLayerArn: given.replace('-Arm64', '') }),
    ).toThrow('not an arm64');
  }, 120_000);
});
