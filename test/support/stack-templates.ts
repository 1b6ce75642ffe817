import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';

// The stack is a root with nested stacks (infra/api/route-family.ts). Tests that ask "which function may
// read this table" read one template: the root's with every nested stack's resources merged in. A
// nested resource's id is prefixed with its nested stack's id in the root, and a reference to one of
// the nested stack's parameters becomes what the root passes for it (a `Ref` to the table, the
// secret, the API...), so references read as if everything were in one template.

export interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>;
  Outputs?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
  Mappings?: Record<string, unknown>;
}

/** The app's context for a test synthesis: no bundling, and asset paths, which name the nested templates. */
export const TEST_SYNTH_CONTEXT = {
  'aws:cdk:bundling-stacks': [],
  'aws:cdk:enable-asset-metadata': true,
};

/** A fresh output folder, so that several apps of one test file never share one. */
export const testOutdir = (): string => mkdtempSync(join(tmpdir(), 'platform-template-'));

/** The merged template of `file` in a synthesized assembly `directory`. */
export function flattenedTemplate(directory: string, file: string): TemplateJson {
  const root = JSON.parse(readFileSync(join(directory, file), 'utf8')) as TemplateJson;
  const merged: TemplateJson = { ...root, Resources: {}, Mappings: { ...root.Mappings } };
  // What each nested stack outputs (rewritten), for the parameters the root passes from one nested
  // stack to another (the key issuers' family adds its methods to other families' resources).
  const outputsOf = new Map<string, Record<string, unknown>>();
  const resolveOutputs = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolveOutputs);
    if (node === null || typeof node !== 'object') return node;
    const getAtt = (node as { 'Fn::GetAtt'?: unknown })['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[1] === 'string' && getAtt[1].startsWith('Outputs.')) {
      const output = outputsOf.get(String(getAtt[0]))?.[getAtt[1].slice('Outputs.'.length)];
      if (output !== undefined) return output;
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveOutputs(value)]));
  };
  for (const [id, resource] of Object.entries(root.Resources)) {
    merged.Resources[id] = resource;
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const nestedFile = (resource.Metadata as Record<string, string> | undefined)?.['aws:asset:path'];
    if (!nestedFile)
      throw new Error(`Nested stack ${id} has no asset path: synthesize with TEST_SYNTH_CONTEXT`);
    const nested = flattenedTemplate(directory, nestedFile);
    const parameters = (resource.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const local = new Set(Object.keys(nested.Resources));
    const rename = (logicalId: string): string => (local.has(logicalId) ? `${id}.${logicalId}` : logicalId);
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const entries = Object.entries(node);
      const [only] = entries;
      if (entries.length === 1 && only?.[0] === 'Ref' && typeof only[1] === 'string') {
        return only[1] in parameters ? resolveOutputs(parameters[only[1]]) : { Ref: rename(only[1]) };
      }
      if (entries.length === 1 && only?.[0] === 'Fn::GetAtt' && Array.isArray(only[1])) {
        const [target, ...attribute] = only[1] as string[];
        return { 'Fn::GetAtt': [rename(target ?? ''), ...attribute] };
      }
      return Object.fromEntries(
        entries.map(([key, value]) => [
          key,
          key === 'DependsOn'
            ? [value].flat().map((dependency) => rename(String(dependency)))
            : rewrite(value),
        ]),
      );
    };
    for (const [nestedId, nestedResource] of Object.entries(nested.Resources)) {
      merged.Resources[rename(nestedId)] = rewrite(nestedResource) as TemplateJson['Resources'][string];
    }
    Object.assign(merged.Mappings ?? {}, nested.Mappings);
    const outputs = (nested.Outputs ?? {}) as Record<string, { Value: unknown }>;
    outputsOf.set(
      id,
      Object.fromEntries(Object.entries(outputs).map(([name, output]) => [name, rewrite(output.Value)])),
    );
  }
  return merged;
}

/** Synthesizes `app` and merges the template of its stack `stackName`. */
export function flattenedStack(app: App, stackName: string): TemplateJson {
  const assembly = app.synth();
  return flattenedTemplate(assembly.directory, assembly.getStackByName(stackName).templateFile);
}
