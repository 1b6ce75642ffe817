import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { PlatformStack } from '#infra/platform-stack.ts';
import { type EndpointRoute, type Route, routes } from '#shared/routes.ts';
import { generatedEntry, generatedRoutes, generatedSubResources } from '../support/generated-routes.ts';

// What a route costs the stack, measured by adding routes (docs/deploying-stack-structure.md):
// `node test/bench/stack-capacity.ts [--fit]`. It synthesizes the app without bundling, with one
// extra route on an existing path, with one that adds one path segment, with one that adds two, and
// with the fifty routes under /projects/{id}/ and the hundred generated routes of
// test/infra/stack-limits.test.ts; `--fit` also adds generated
// routes ten at a time until a template reaches 400 resources.

interface Templates {
  total: number;
  largest: { file: string; resources: number };
  biggest: { file: string; kilobytes: number };
  count: number;
}

function measure(extra: readonly Route[]): Templates {
  const outdir = mkdtempSync(join(tmpdir(), 'platform-capacity-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    new PlatformStack(app, 'PlatformStack', { routes: [...routes, ...extra], functionEntry: generatedEntry });
    app.synth();
    const facts = readdirSync(outdir)
      .filter((file) => file.endsWith('.template.json'))
      .map((file) => {
        const text = readFileSync(join(outdir, file), 'utf8');
        const resources = Object.keys((JSON.parse(text) as { Resources?: object }).Resources ?? {}).length;
        return { file, resources, kilobytes: Math.round(Buffer.byteLength(text) / 1024) };
      });
    const by = <K extends 'resources' | 'kilobytes'>(key: K) =>
      facts.reduce((best, next) => (next[key] > best[key] ? next : best));
    return {
      total: facts.reduce((sum, next) => sum + next.resources, 0),
      largest: by('resources'),
      biggest: by('kilobytes'),
      count: facts.length,
    };
  } catch (error) {
    // CloudFormation's limit is CDK's too: past 500 resources in one template the synth throws.
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.split('\n')[0]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const row = (method: EndpointRoute['method'], path: string, handler: string): EndpointRoute => ({
  ...(generatedRoutes(1)[0] as EndpointRoute),
  method,
  path,
  handler,
  operationId: handler.replace(/-/g, ''),
});

const base = measure([]);
console.log(`today's rows: ${JSON.stringify(base)}`);
const cases: [string, Route][] = [
  ['a route on an existing path (GET /keys/{id})', row('GET', '/keys/{id}', 'gen-existing')],
  ['a route with one new segment (GET /projects/{id}/more)', row('GET', '/projects/{id}/more', 'gen-one')],
  ['a route with two new segments (GET /more/{id})', row('GET', '/more/{id}', 'gen-two')],
];
for (const [name, extra] of cases) {
  const with1 = measure([extra]);
  console.log(
    `${name}: +${with1.total - base.total} resources (largest template ${with1.largest.resources})`,
  );
}
const subResources = measure(generatedSubResources(50));
console.log(
  `50 routes under /projects/{id}/, a segment each (the family splits, infra/api/family-split.ts): ${JSON.stringify(subResources)}`,
);
try {
  const hundred = measure(generatedRoutes(100));
  console.log(`100 generated routes: ${JSON.stringify(hundred)}`);
} catch (error) {
  console.log(`100 generated routes: ${error instanceof Error ? error.message : String(error)}`);
}
if (process.argv.includes('--fit')) {
  let fits = 0;
  for (let count = 20; ; count += 20) {
    const grown = measure(generatedRoutes(count));
    if (grown.largest.resources >= 400) {
      console.log(`${count} generated routes: a template reaches 400 (${JSON.stringify(grown.largest)})`);
      break;
    }
    fits = count;
    if (count % 100 === 0) console.log(`${count} generated routes: ${JSON.stringify(grown)}`);
  }
  console.log(`routes that fit before any template reaches 400 resources: at least ${fits}`);
}
