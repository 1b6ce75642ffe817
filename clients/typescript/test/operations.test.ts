import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { errorCodes } from '../../../shared/model/error-catalogue.ts';
import { generate, methodName, operationRows, ROOT, readDocument } from '../scripts/generate.ts';
import { errorClasses, PlatformClient } from '../src/index.ts';
import { documentedOperations, missingMethods } from './support/coverage.ts';

// The SDK is generated from the published document: these fail when a route lands without its
// method, or when the committed generated files are not what the document generates.

const document = readDocument();
const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9/v1' });

describe('the SDK and the document', () => {
  it('has a method for every operationId of the document', () => {
    expect(documentedOperations(document).length).toBeGreaterThan(30);
    const missing = missingMethods(document, client);
    if (missing) throw new Error(missing);
  });

  it('names each operation the client lacks, as a route added without regenerating would be', () => {
    const withNewRoute = structuredClone(document);
    withNewRoute.paths['/deployments/{id}/artifacts'] = {
      servers: [{ url: '{base_url}' }],
      get: { operationId: 'listDeploymentArtifacts', tags: ['Deployments'], responses: { 200: {} } },
    };
    expect(missingMethods(withNewRoute, client)).toBe(
      [
        '1 operation(s) of shared/openapi/openapi.json have no method in @platform-api/client:',
        '  - listDeploymentArtifacts (GET {base_url}/deployments/{id}/artifacts)',
        'Run `npm run clients:generate` (`npm run openapi` runs it too) and commit clients/typescript/src/generated/.',
      ].join('\n'),
    );
  });

  it('commits the files the document generates (else: `npm run clients:generate`, and commit them)', async () => {
    for (const [file, text] of Object.entries(await generate(document))) {
      if (readFileSync(file, 'utf8') !== text) {
        throw new Error(
          `${relative(ROOT, file)} is not what shared/openapi/openapi.json generates: run \`npm run clients:generate\``,
        );
      }
    }
  });

  it("names what each method answers, spelling a wrapper's fields: the creates that show a secret answer it beside the resource", () => {
    const answers = Object.fromEntries(operationRows(document).map((row) => [row.operationId, row.answers]));
    expect(answers).toMatchObject({
      createProject: 'Project',
      createKey: '{apiKey, key} (CreatedApiKey)',
      createTeamToken: '{apiKey, token} (CreatedTeamToken)',
      createWebhook: '{secret, webhook} (CreatedWebhook)',
    });
    const creates = operationRows(document).filter(
      (row) => row.name === 'create' && row.answers?.startsWith('{'),
    );
    expect(creates.map((row) => row.operationId).sort()).toEqual([
      'createKey',
      'createTeamToken',
      'createWebhook',
    ]);
  });

  it('has an error class for every code of the catalogue', () => {
    expect(errorCodes.filter((code) => !errorClasses[code])).toEqual([]);
  });
});

describe('method names', () => {
  it.each([
    ['listProjects', 'projects', 'list'],
    ['getProject', 'projects', 'get'],
    ['listProjectDeployments', 'deployments', 'listForProject'],
    ['listDeploymentEvents', 'deployments', 'listEvents'],
    ['reportDeploymentEvent', 'deployments', 'reportEvent'],
    ['listWebhookDeliveries', 'webhooks', 'listDeliveries'],
    ['revokeKey', 'keys', 'revoke'],
    ['login', 'auth', 'login'],
    ['getHealth', 'service', 'getHealth'],
    ['listAuditEvents', 'auditLog', 'list'],
    // Routes that may land: how they would be named.
    ['waitForDeployment', 'deployments', 'wait'],
    ['promoteDeployment', 'deployments', 'promote'],
    ['listProjectEnvironmentVariables', 'environmentVariables', 'listForProject'],
    ['getDeploymentBuildEnv', 'deployments', 'getBuildEnv'],
  ])('%s in %s is %s', (operationId, group, name) => {
    expect(methodName(operationId, group)).toBe(name);
  });

  it('stops the generator when two operations would have one name', () => {
    const clash = structuredClone(document);
    clash.paths['/projects/{id}/copy'] = {
      post: { operationId: 'createProjects', tags: ['Projects'], responses: { 201: {} } },
    };
    expect(() => operationRows(clash)).toThrow(
      'createProject and createProjects would both be client.projects.create(): name one in METHOD_OF_OPERATION',
    );
  });
});
