import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { PlatformStack, type PlatformStackProps } from '#infra/platform-stack.ts';
import { routes } from '#shared/routes.ts';
import { generatedEntry, generatedRoutes, generatedSubResources } from '../support/generated-routes.ts';

// CloudFormation refuses a template over 500 resources, 1 MB (from S3), 200 parameters or 200
// outputs. The stack must keep room for the API to grow: with a hundred more routes than today, every
// template it synthesizes (the root and each nested stack) stays 20 % below those limits. The rows
// and their handler exist only in this test (test/support/generated-routes.ts).

const LIMITS = { resources: 400, bytes: 800 * 1024, parameters: 200, outputs: 200 };

interface TemplateFacts {
  file: string;
  resources: number;
  bytes: number;
  parameters: number;
  outputs: number;
}

interface SynthesizedTemplate {
  file: string;
  text: string;
  template: {
    Resources?: Record<string, { Type: string }>;
    Parameters?: Record<string, unknown>;
    Outputs?: Record<string, unknown>;
  };
}

/** Every template file the app writes (the root's and each nested stack's), as `cdk deploy` uploads them. */
function synthesize(props: PlatformStackProps = {}): SynthesizedTemplate[] {
  const outdir = mkdtempSync(join(tmpdir(), 'platform-limits-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    new PlatformStack(app, 'PlatformStack', props);
    app.synth();
    return readdirSync(outdir)
      .filter((file) => file.endsWith('.template.json'))
      .map((file) => {
        const text = readFileSync(join(outdir, file), 'utf8');
        return { file, text, template: JSON.parse(text) as SynthesizedTemplate['template'] };
      });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const factsOf = ({ file, text, template }: SynthesizedTemplate): TemplateFacts => ({
  file,
  resources: Object.keys(template.Resources ?? {}).length,
  bytes: Buffer.byteLength(text),
  parameters: Object.keys(template.Parameters ?? {}).length,
  outputs: Object.keys(template.Outputs ?? {}).length,
});

const ROOT_TEMPLATE = 'PlatformStack.template.json';

/** `make`'s result, made on first use and shared by the tests that read the same synthesis. */
const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
};
/** Today's stack, read by two tests. */
const today = once(() => synthesize());

describe('room to grow', () => {
  it('keeps every template within 400 resources, 800 KB, 200 parameters and 200 outputs with 100 more routes', () => {
    const templates = synthesize({
      routes: [...routes, ...generatedRoutes(100)],
      functionEntry: generatedEntry,
    }).map(factsOf);
    const overLimits = templates.filter(
      (facts) =>
        facts.resources > LIMITS.resources ||
        facts.bytes > LIMITS.bytes ||
        facts.parameters > LIMITS.parameters ||
        facts.outputs > LIMITS.outputs,
    );
    expect(overLimits).toEqual([]);
    expect(templates.map((facts) => facts.file)).toContain(ROOT_TEMPLATE);
  }, 600_000);
});

describe('a family that grows past its budget', () => {
  // Fifty more routes under /projects/{id}/..., each on a segment of its own: in one stack the
  // /projects family would hold about 440 resources. It splits instead (infra/api/family-split.ts): today's
  // rows and as many of the new ones as fit stay in its stack, each other sub-tree gets one of its own.
  const PROJECTS_FAMILY = 'PlatformStackPlatformApiProjectsRoutes';
  const fifty = generatedSubResources(50);
  const withFifty = once(() => synthesize({ routes: [...routes, ...fifty], functionEntry: generatedEntry }));

  it('keeps every template within 400 resources with 50 more routes under /projects/{id}/', () => {
    const templates = withFifty().map(factsOf);
    expect(templates.filter((facts) => facts.resources > LIMITS.resources)).toEqual([]);
    expect(templates.filter((facts) => facts.file.startsWith(PROJECTS_FAMILY))).toHaveLength(1);
  }, 600_000);

  it("leaves today's rows and their resources in the family's stack, unchanged, when it splits", () => {
    const resourcesOfFamily = (templates: SynthesizedTemplate[]) => {
      const family = templates.find((synthesized) => synthesized.file.startsWith(PROJECTS_FAMILY));
      if (!family) throw new Error('No /projects family');
      // Assets are bundled code, which this synthesis leaves out: their hashes are not compared.
      return JSON.parse(
        JSON.stringify(family.template.Resources ?? {}).replace(/[0-9a-f]{64}/g, 'asset'),
      ) as Record<string, unknown>;
    };
    const before = resourcesOfFamily(today());
    const grown = resourcesOfFamily(withFifty());
    expect(Object.keys(grown).length).toBeGreaterThan(Object.keys(before).length);
    expect(Object.fromEntries(Object.keys(before).map((id) => [id, grown[id]]))).toEqual(before);
  }, 600_000);
});

describe('what holds data stays where it was', () => {
  // The logical ids of every stateful resource as deployed before the stack was split (captured from
  // the one-stack template of commit 970d106). CloudFormation replaces a resource whose logical id or
  // stack changes: for a table, a new and empty one; for a secret, a new value that logs everyone out;
  // for a queue, lost messages; for the KMS key, every sealed variable unreadable. They stay in the
  // root stack under these ids.
  const STATEFUL_TYPES = [
    'AWS::DynamoDB::Table',
    'AWS::SecretsManager::Secret',
    'AWS::SQS::Queue',
    'Custom::KeySigningPublicKey',
    'AWS::KMS::Key',
  ];
  const DEPLOYED_IDS = {
    'AWS::DynamoDB::Table': [
      'ApiKeysTable9F4DC7E7',
      'AuditEventsTable',
      'DeploymentLogsTable',
      'DeploymentsTable5D087E52',
      'DomainsTable',
      'EnvironmentTable',
      'IdempotencyTable22A5A209',
      'ProjectsTableAA0A2089',
      'RateLimitsTable24B09F2E',
      'TeamsTable',
      'UsersTable9725E9C8',
      'WebhookDeliveriesTable',
      'WebhooksTable',
    ],
    'AWS::SecretsManager::Secret': ['CursorSecretABAE1358', 'KeySigningSeed'],
    'AWS::SQS::Queue': [
      'StreamFailuresQueue4F2B15EC',
      'WebhooksDeadLetterQueue1C65998B',
      'WebhooksDeliveryQueue42B30D41',
    ],
    'Custom::KeySigningPublicKey': ['KeySigningPublicKey'],
    'AWS::KMS::Key': ['EnvironmentKey'],
  };

  const statefulIdsOf = (template: SynthesizedTemplate['template']): Record<string, string[]> =>
    Object.fromEntries(
      STATEFUL_TYPES.map((type) => [
        type,
        Object.entries(template.Resources ?? {})
          .filter(([, resource]) => resource.Type === type)
          .map(([id]) => id)
          .sort(),
      ]),
    );

  it('keeps every table, secret, queue, the KMS key and the key-signing custom resource in the root stack under its deployed logical id', () => {
    const templates = today();
    const root = templates.find((synthesized) => synthesized.file === ROOT_TEMPLATE);
    if (!root) throw new Error(`No ${ROOT_TEMPLATE}`);
    expect(statefulIdsOf(root.template)).toEqual(DEPLOYED_IDS);
    const elsewhere = templates
      .filter((synthesized) => synthesized !== root)
      .map((synthesized) => ({ file: synthesized.file, ids: statefulIdsOf(synthesized.template) }))
      .filter(({ ids }) => Object.values(ids).some((found) => found.length > 0));
    expect(elsewhere).toEqual([]);
  }, 300_000);
});
