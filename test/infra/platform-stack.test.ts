import { App, CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describeFunction } from '#infra/api/endpoint-function.ts';
import { PlatformStack, type PlatformStackProps } from '#infra/platform-stack.ts';
import { stackSettingsOf } from '#infra/stack-settings.ts';
import { consumerHandlers } from '#shared/consumers.ts';
import { type TableDefinition, type TableKey, tableKeys, tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE } from '#shared/domain/key-identity.ts';
import { errorCatalogue } from '#shared/model/error-catalogue.ts';
import { type ApiGroup, actsInTeam, handlers, isFallback, type Route, routes } from '#shared/routes.ts';
import { ConfigSchema } from '#shared/runtime/config.ts';
import { arnVariableOf, type SecretName } from '#shared/runtime/secrets.ts';
import { flattenedStack, TEST_SYNTH_CONTEXT, testOutdir } from '../support/stack-templates.ts';

// The stack is synthesized once, with bundling skipped: the template is what is under test, not esbuild.
// Its nested stacks (the route families) are merged into one template (test/support/stack-templates.ts).
const testApp = () => new App({ outdir: testOutdir(), context: TEST_SYNTH_CONTEXT });
const app = testApp();
const stack = new PlatformStack(app, 'PlatformStack');
const template = Template.fromJSON(flattenedStack(app, 'PlatformStack'));

/** The merged template of a stack built in an app of its own. */
const synthesized = (props: PlatformStackProps = {}): Template => {
  const other = testApp();
  new PlatformStack(other, 'PlatformStack', props);
  return Template.fromJSON(flattenedStack(other, 'PlatformStack'));
};

/**
 * The stack with every setting the tests below change from its default, made once on first use: each
 * synthesis of the whole stack costs seconds of CPU, and the settings touch different resources, so
 * each test reads its own setting's effect, and none of the others', in the one template.
 */
let configuredTemplate: Template | undefined;
const configured = (): Template => {
  configuredTemplate ??= synthesized({
    ...stackSettingsOf((key) => (key === 'logRetentionDays' ? '90' : undefined)).props,
    authReservedConcurrency: 5,
    heldOpenReservedConcurrency: false,
    alarmThresholds: { serverErrorPercent: 5, p99LatencyMs: 1000 },
    alarmEmail: 'oncall@example.com',
    routeMetrics: true,
  });
  return configuredTemplate;
};

// ---- The template's shapes, as far as these tests read them ------------------------------------------

interface CfnResource<P> {
  Type: string;
  Properties: P;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
interface FunctionProps {
  Description?: string;
  Runtime: string;
  Architectures: string[];
  Timeout: number;
  MemorySize: number;
  Role: unknown;
  Environment?: { Variables: Record<string, unknown> };
  ReservedConcurrentExecutions?: number;
}
interface ApiResourceProps {
  RestApiId: unknown;
  ParentId: unknown;
  PathPart: string;
}
interface MethodProps {
  HttpMethod: string;
  RestApiId: unknown;
  ResourceId: unknown;
  Integration: { Uri: unknown; ResponseTransferMode?: string; TimeoutInMillis?: number };
}
interface PolicyProps {
  Roles: unknown[];
  PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] };
}
type Statement = PolicyProps['PolicyDocument']['Statement'][number];
interface RoleProps {
  Policies?: { PolicyDocument: { Statement: Statement[] } }[];
}
interface TableProps {
  BillingMode: string;
  KeySchema: { AttributeName: string; KeyType: string }[];
  GlobalSecondaryIndexes?: {
    IndexName: string;
    KeySchema: { AttributeName: string; KeyType: string }[];
    Projection: { ProjectionType: string };
  }[];
  TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
  PointInTimeRecoverySpecification?: { PointInTimeRecoveryEnabled: boolean };
  DeletionProtectionEnabled?: boolean;
}
interface WafRule {
  Name: string;
  Statement: {
    SizeConstraintStatement?: unknown;
    RateBasedStatement?: unknown;
    ManagedRuleGroupStatement?: unknown;
  };
  Action?: {
    Block: {
      CustomResponse: {
        ResponseCode: number;
        CustomResponseBodyKey: string;
        ResponseHeaders?: { Name: string; Value: string }[];
      };
    };
  };
}
interface WebAclProps {
  Scope: string;
  Rules: WafRule[];
  CustomResponseBodies: Record<string, { ContentType: string; Content: string }>;
  AssociationConfig: unknown;
}
interface GatewayResponseProps {
  ResponseType: string;
  RestApiId: unknown;
  StatusCode?: string;
  ResponseParameters: Record<string, string>;
  ResponseTemplates: Record<string, string>;
}

const resourcesOf = <P>(type: string): [string, CfnResource<P>][] =>
  Object.entries(template.findResources(type) as Record<string, CfnResource<P>>);

/** Every logical id that `value` points at with `Ref` or `Fn::GetAtt`, however deeply nested. */
function referencedIds(value: unknown): Set<string> {
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key === 'Ref' && typeof child === 'string') ids.add(child);
        else if (key === 'Fn::GetAtt' && Array.isArray(child) && typeof child[0] === 'string')
          ids.add(child[0]);
        else walk(child);
      }
    }
  };
  walk(value);
  return ids;
}

const refersTo = (value: unknown, logicalId: string): boolean => referencedIds(value).has(logicalId);

/**
 * Every statement a role is granted: its inline policies (the functions' grants) and any policy
 * resource attached to it.
 */
function roleStatements(roleId: string | undefined): Statement[] {
  if (roleId === undefined) return [];
  const role = resourcesOf<RoleProps>('AWS::IAM::Role').find(([id]) => id === roleId);
  return [
    ...(role?.[1].Properties.Policies ?? []).flatMap((policy) => policy.PolicyDocument.Statement),
    ...resourcesOf<PolicyProps>('AWS::IAM::Policy')
      .filter(([, policy]) => refersTo(policy.Properties.Roles, roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement),
  ];
}

// ---- Finding a row's function, its methods, its grants -------------------------------------------------

const functions = resourcesOf<FunctionProps>('AWS::Lambda::Function');

/** The logical ids of the functions that describe themselves as serving `route` (with its handler's other rows). */
const functionIdsOf = (route: Route): string[] =>
  functions
    .filter(([, fn]) => fn.Properties.Description === describeFunction(route.handler))
    .map(([id]) => id);

/** The one function of `route`; fails the test when there is none or more than one. */
function functionOf(route: Route): [string, FunctionProps] {
  const ids = functionIdsOf(route);
  expect(ids).toHaveLength(1);
  const found = functions.find(([id]) => id === ids[0]);
  if (!found) throw new Error(`No function serves ${route.method} ${route.path}`);
  return [found[0], found[1].Properties];
}

const apiNames: Record<ApiGroup, string> = { platform: 'PlatformApi', backend: 'BackendApi' };

function apiIdOf(group: ApiGroup): string {
  const found = resourcesOf<{ Name: string }>('AWS::ApiGateway::RestApi').find(
    ([, api]) => api.Properties.Name === apiNames[group],
  );
  if (!found) throw new Error(`No REST API for the ${group} group`);
  return found[0];
}

const apiResources = new Map(resourcesOf<ApiResourceProps>('AWS::ApiGateway::Resource'));

/** The full path of an API Gateway resource reference: the root (`Fn::GetAtt RootResourceId`) is `/`. */
function pathOf(resourceRef: unknown): string {
  const [parentId] = referencedIds(resourceRef);
  const resource = parentId === undefined ? undefined : apiResources.get(parentId);
  if (!resource) return '/';
  const parentPath = pathOf(resource.Properties.ParentId);
  return `${parentPath === '/' ? '' : parentPath}/${resource.Properties.PathPart}`;
}

interface ApiMethod {
  httpMethod: string;
  path: string;
  integrationUri: unknown;
  /** STREAM for a streaming integration (InvokeWithResponseStream); absent (BUFFERED) otherwise. */
  transferMode?: string;
  /** The integration's timeout, when it is not API Gateway's default 29 s. */
  timeoutMs?: number;
}

const methodsOf = (group: ApiGroup): ApiMethod[] =>
  resourcesOf<MethodProps>('AWS::ApiGateway::Method')
    .filter(([, method]) => refersTo(method.Properties.RestApiId, apiIdOf(group)))
    .map(([, method]) => ({
      httpMethod: method.Properties.HttpMethod,
      path: pathOf(method.Properties.ResourceId),
      integrationUri: method.Properties.Integration.Uri,
      ...(method.Properties.Integration.ResponseTransferMode === undefined
        ? {}
        : { transferMode: method.Properties.Integration.ResponseTransferMode }),
      ...(method.Properties.Integration.TimeoutInMillis === undefined
        ? {}
        : { timeoutMs: method.Properties.Integration.TimeoutInMillis }),
    }));

/** Every resource path of a group's API, the root included. */
const resourcePathsOf = (group: ApiGroup): string[] => [
  '/',
  ...[...apiResources]
    .filter(([, resource]) => refersTo(resource.Properties.RestApiId, apiIdOf(group)))
    .map(([id]) => pathOf({ Ref: id })),
];

function tableLogicalId(key: TableKey): string {
  const cfnTable = stack.tables[key].node.defaultChild;
  if (!(cfnTable instanceof CfnElement)) throw new Error(`Table ${key} has no CloudFormation resource`);
  // Resolved, so that a pinned (overridden) id is the one returned.
  return stack.resolve(cfnTable.logicalId);
}

const dynamoTables = new Map(resourcesOf<TableProps>('AWS::DynamoDB::Table'));

const tableKeyByLogicalId = new Map(tableKeys.map((key) => [tableLogicalId(key), key]));

/** DynamoDB actions that the function's role allows, per table of the stack. */
function tableGrantsOf(fn: FunctionProps): Map<TableKey, Set<string>> {
  const [roleId] = referencedIds(fn.Role);
  const grants = new Map<TableKey, Set<string>>();
  for (const statement of roleStatements(roleId)) {
    const actions = [statement.Action].flat().filter((action) => action.startsWith('dynamodb:'));
    for (const id of referencedIds(statement.Resource)) {
      const key = tableKeyByLogicalId.get(id);
      if (key === undefined) continue;
      const granted = grants.get(key) ?? new Set<string>();
      for (const action of actions) granted.add(action);
      grants.set(key, granted);
    }
  }
  return grants;
}

/** The IAM actions a row names on a table: its own, and `Query` for the queries of its indexes. */
/**
 * What a row's function may do table by table: what its row names, and for every row acting in a
 * team the put of a refusal into the team's audit log (shared/http/audit-trail.ts).
 */
const tablesOfRow = (route: Route): Partial<Record<TableKey, readonly string[]>> =>
  actsInTeam(route)
    ? { ...route.tables, auditEvents: [...(route.tables.auditEvents ?? []), 'PutItem'] }
    : route.tables;

const rowActionsOn = (route: Route, key: TableKey): string[] =>
  sorted(
    new Set(
      (tablesOfRow(route)[key] ?? []).map((action: string) =>
        action.startsWith('Query:') ? 'dynamodb:Query' : `dynamodb:${action}`,
      ),
    ),
  );

/** The indexes a row queries on a table, by name. */
const rowIndexesOn = (route: Route, key: TableKey): string[] =>
  (tablesOfRow(route)[key] ?? []).flatMap((action: string) => /^Query:(.+)$/.exec(action)?.[1] ?? []);

/** What the secrets extension's layer adds to the environment of a function that reads secrets. */
const extensionVariables = [
  'PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED',
  'PARAMETERS_SECRETS_EXTENSION_CACHE_SIZE',
  'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT',
  'PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL',
  'PARAMETERS_SECRETS_EXTENSION_MAX_CONNECTIONS',
  'SECRETS_MANAGER_TIMEOUT_MILLIS',
  'SECRETS_MANAGER_TTL',
  'SSM_PARAMETER_STORE_TIMEOUT_MILLIS',
  'SSM_PARAMETER_STORE_TTL',
];

function secretLogicalId(name: SecretName): string {
  const cfnSecret = stack.secrets[name].node.defaultChild;
  if (!(cfnSecret instanceof CfnElement)) throw new Error(`Secret ${name} has no CloudFormation resource`);
  return stack.resolve(cfnSecret.logicalId);
}

/** Every statement of the policies attached to the function's role. */
function statementsOf(fn: FunctionProps): Statement[] {
  const [roleId] = referencedIds(fn.Role);
  return roleStatements(roleId);
}

const tableKeysOf = (route: Route): TableKey[] =>
  tableKeys.filter((key) => tablesOfRow(route)[key] !== undefined);

const sorted = (values: Iterable<string>): string[] => [...values].sort();

// ---- The tests -----------------------------------------------------------------------------------------

describe('PlatformStack', () => {
  describe.each(
    routes.map((route): [string, Route] => [`${route.method} ${route.path} (${route.api})`, route]),
  )('the route %s', (_, route) => {
    it('has exactly one function, on Node.js 24, arm64, with its memory and a 10 s timeout (plus what its row holds open)', () => {
      const [, fn] = functionOf(route);
      expect({
        runtime: fn.Runtime,
        architectures: fn.Architectures,
        timeout: fn.Timeout,
        memory: fn.MemorySize,
      }).toEqual({
        runtime: 'nodejs24.x',
        architectures: ['arm64'],
        // Lambda's longest for a stream, which ends itself before (a test below).
        timeout: route.streams ? 900 : 10 + (route.holdsOpenSeconds ?? 0),
        memory: route.memoryMb ?? 256,
      });
    });

    it('is reachable through its method on its path, integrated with its own function', () => {
      const [functionId] = functionOf(route);
      const reaching = methodsOf(route.api).filter(
        (method) =>
          method.httpMethod === route.method &&
          method.path === route.path &&
          refersTo(method.integrationUri, functionId),
      );
      expect(reaching).toHaveLength(1);
    });

    it('streams its answer through its integration exactly when its row streams', () => {
      const [functionId] = functionOf(route);
      const [method] = methodsOf(route.api).filter(
        (candidate) =>
          candidate.httpMethod === route.method &&
          candidate.path === route.path &&
          refersTo(candidate.integrationUri, functionId),
      );
      const streamingUri = JSON.stringify(method?.integrationUri).includes('response-streaming-invocations');
      expect({ mode: method?.transferMode, streamingUri, timeoutMs: method?.timeoutMs }).toEqual(
        route.streams
          ? { mode: 'STREAM', streamingUri: true, timeoutMs: 900_000 }
          : { mode: undefined, streamingUri: false, timeoutMs: undefined },
      );
    });

    it('may use exactly the tables its row names, and write only those it writes', () => {
      const [, fn] = functionOf(route);
      const grants = tableGrantsOf(fn);
      expect(sorted(grants.keys())).toEqual(sorted(tableKeysOf(route)));
      for (const key of tableKeysOf(route)) {
        expect({ table: key, actions: sorted(grants.get(key) ?? []) }).toEqual({
          table: key,
          actions: rowActionsOn(route, key),
        });
      }
    });

    it('may query exactly the indexes its row names, each by name', () => {
      const [, fn] = functionOf(route);
      const [roleId] = referencedIds(fn.Role);
      const indexed = tableKeysOf(route).filter(
        (key) => Object.keys((tables[key] as TableDefinition).indexes ?? {}).length > 0,
      );
      const statements = roleStatements(roleId);
      for (const key of indexed) {
        const queried = statements
          .filter((statement) => [statement.Action].flat().includes('dynamodb:Query'))
          .flatMap((statement) => [statement.Resource].flat())
          .filter((resource) => refersTo(resource, tableLogicalId(key)))
          .map((resource) => JSON.stringify(resource));
        const indexNames = Object.keys((tables[key] as TableDefinition).indexes ?? {});
        expect({
          table: key,
          indexes: indexNames.filter((name) => queried.some((arn) => arn.includes(`/index/${name}"`))),
        }).toEqual({
          table: key,
          indexes: rowIndexesOn(route, key),
        });
        expect(queried.some((arn) => arn.includes('/index/*'))).toBe(false);
      }
    });

    it("gets its stack's name, the name variables of exactly its tables, its secrets' ARNs, the public keys if it admits or issues keys, the queue it sends to and the KMS key it uses", () => {
      const [, fn] = functionOf(route);
      const variables = fn.Environment?.Variables ?? {};
      const secretNames = route.secrets ?? [];
      expect(sorted(Object.keys(variables))).toEqual(
        sorted([
          'SERVICE_NAME',
          'METRICS_BY_ROUTE',
          ...tableKeysOf(route).map((key) => tables[key].envVar),
          ...secretNames.map(arnVariableOf),
          ...(route.access === 'apiKey' || route.secrets?.includes('keySigningSeed')
            ? [PUBLIC_KEYS_VARIABLE]
            : []),
          ...(secretNames.length > 0 ? extensionVariables : []),
          ...(route.queues?.includes('webhookDeliveries') ? ['WEBHOOK_QUEUE_URL'] : []),
          // The served document's {base_url} (functions/service/docs.ts).
          ...(route.handler === 'docs' ? ['PLATFORM_BASE_URL'] : []),
          ...(route.kms?.length ? ['ENVIRONMENT_KEY_ARN'] : []),
          // The routing target of custom domains, where it is shown or checked (-c domainTarget).
          ...(['create-domain', 'verify-domain'].includes(route.handler) ? ['DOMAIN_TARGET'] : []),
        ]),
      );
      expect(variables.SERVICE_NAME).toBe('PlatformStack');
      expect(variables.METRICS_BY_ROUTE).toBe('off');
      for (const key of tableKeysOf(route)) {
        expect(refersTo(variables[tables[key].envVar], tableLogicalId(key))).toBe(true);
      }
      for (const name of secretNames) {
        expect(refersTo(variables[arnVariableOf(name)], secretLogicalId(name))).toBe(true);
      }
    });

    it('may read exactly the secrets its row names', () => {
      const [, fn] = functionOf(route);
      const readable = statementsOf(fn)
        .filter((statement) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'))
        .flatMap((statement) => [...referencedIds(statement.Resource)]);
      expect(sorted(readable)).toEqual(sorted((route.secrets ?? []).map(secretLogicalId)));
    });
  });

  it('deploys one function per handler of the route table and per consumer, and besides them only the public-key custom resource', () => {
    const ours = new Set(handlers().map((handler) => describeFunction(handler)));
    const others = functions.filter(([, fn]) => !ours.has(fn.Properties.Description ?? ''));
    expect(functions).toHaveLength(handlers().length + others.length);
    expect(others.map(([, fn]) => fn.Properties.Description).sort()).toEqual(
      [
        'AWS CDK resource provider framework - onEvent (PlatformStack/KeySigningPublicKeyProvider)',
        'Custom resource: the public key of the key-signing seed',
        ...consumerHandlers().map(
          (handler) =>
            `${{ 'purge-project': 'projects', 'auto-promote': 'deployments', 'recheck-domains': 'domains', 'record-audit-events': 'audit' }[handler] ?? 'webhooks'}: ${handler}`,
        ),
      ].sort(),
    );
  });

  it('serves GET /openapi.json and GET /docs and its files on the backend API from one function without table access', () => {
    const docsRows = routes.filter((route) => route.handler === 'docs');
    expect(docsRows.map((route) => `${route.api} ${route.method} ${route.path}`)).toEqual([
      'backend GET /openapi.json',
      'backend GET /docs',
      'backend GET /docs/swagger-ui.css',
      'backend GET /docs/swagger-ui-bundle.js',
      'backend GET /docs/init.js',
    ]);
    const [first] = docsRows;
    if (!first) throw new Error('No docs row');
    const [docsFunction, fn] = functionOf(first);
    const served = methodsOf('backend')
      .filter((method) => refersTo(method.integrationUri, docsFunction))
      .map((method) => `${method.httpMethod} ${method.path}`);
    expect(served.sort()).toEqual(docsRows.map((route) => `${route.method} ${route.path}`).sort());
    expect(tableGrantsOf(fn).size).toBe(0);
    const variables = fn.Environment?.Variables ?? {};
    expect(Object.keys(variables).sort()).toEqual(['METRICS_BY_ROUTE', 'PLATFORM_BASE_URL', 'SERVICE_NAME']);
    // The platform API's own URL, so that "Try it out" on the page calls this stack.
    expect(JSON.stringify(variables.PLATFORM_BASE_URL)).toMatch(/PlatformApi.*execute-api.*\/v1"/);
  });

  it('names the platform stage v1 and the backend stage live', () => {
    const stageNameOf = (group: ApiGroup) =>
      resourcesOf<{ RestApiId: unknown; StageName: string }>('AWS::ApiGateway::Stage')
        .filter(([, stage]) => refersTo(stage.Properties.RestApiId, apiIdOf(group)))
        .map(([, stage]) => stage.Properties.StageName);
    expect({ platform: stageNameOf('platform'), backend: stageNameOf('backend') }).toEqual({
      platform: ['v1'],
      backend: ['live'],
    });
  });

  it.each(['platform', 'backend'] as const)(
    'sends every unmatched path and method of the %s API to its fallback function',
    (group) => {
      const fallback = routes.find((route) => route.api === group && isFallback(route));
      if (!fallback) throw new Error(`No fallback row for ${group}`);
      const [fallbackId] = functionOf(fallback);
      const paths = resourcePathsOf(group);
      expect(paths).toContain('/{proxy+}');
      const withoutFallback = paths.filter(
        (path) =>
          !methodsOf(group).some(
            (method) =>
              method.path === path &&
              method.httpMethod === 'ANY' &&
              refersTo(method.integrationUri, fallbackId),
          ),
      );
      expect(withoutFallback).toEqual([]);
    },
  );

  it('protects every table from deletion and keeps it when the stack goes or its logical id changes', () => {
    const protectedTables = [...dynamoTables].map(([id, table]) => ({
      id,
      DeletionProtectionEnabled: table.Properties.DeletionProtectionEnabled,
      DeletionPolicy: table.DeletionPolicy,
      UpdateReplacePolicy: table.UpdateReplacePolicy,
    }));
    expect(protectedTables.map(({ id }) => tableKeyByLogicalId.get(id)).sort()).toEqual(
      [...tableKeys].sort(),
    );
    expect(protectedTables).toEqual(
      protectedTables.map(({ id }) => ({
        id,
        DeletionProtectionEnabled: true,
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      })),
    );
  });

  it("keeps tables on demand, with their keys, indexes and TTL, and users' data recoverable to any second", () => {
    for (const key of tableKeys) {
      const definition: TableDefinition = tables[key];
      const table = dynamoTables.get(tableLogicalId(key));
      if (!table) throw new Error(`No DynamoDB table for ${key}`);
      const keySchema = (partitionKey: string, sortKey?: string) => [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        ...(sortKey ? [{ AttributeName: sortKey, KeyType: 'RANGE' }] : []),
      ];
      expect({ key, ...table.Properties }).toMatchObject({
        key,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keySchema(definition.partitionKey, definition.sortKey),
        // Users' data is recoverable; the four disposable tables do without (infra/data/tables-without-recovery.ts).
        PointInTimeRecoverySpecification: {
          PointInTimeRecoveryEnabled: ![
            'idempotency',
            'rateLimits',
            'webhookDeliveries',
            'deploymentLogs',
          ].includes(key),
        },
      });
      expect(table.Properties.TimeToLiveSpecification?.AttributeName).toBe(definition.ttlAttribute);
      expect(table.Properties.GlobalSecondaryIndexes ?? []).toEqual(
        Object.entries(definition.indexes ?? {}).map(([indexName, index]) => ({
          IndexName: indexName,
          KeySchema: keySchema(index.partitionKey, index.sortKey),
          Projection:
            typeof index.projection === 'object'
              ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] }
              : { ProjectionType: index.projection ?? 'ALL' },
        })),
      );
    }
  });

  it.each(['platform', 'backend'] as const)(
    "answers API Gateway's own errors on the %s API in the contract's JSON",
    (group) => {
      const responses = new Map(
        resourcesOf<GatewayResponseProps>('AWS::ApiGateway::GatewayResponse')
          .filter(([, response]) => refersTo(response.Properties.RestApiId, apiIdOf(group)))
          .map(([, response]) => [response.Properties.ResponseType, response.Properties]),
      );
      const shape = (type: string) => {
        const response = responses.get(type);
        const body = response?.ResponseTemplates['application/json'];
        return {
          status: response?.StatusCode,
          contentType: response?.ResponseParameters['gatewayresponse.header.Content-Type'],
          // `messageString` is substituted with a quoted JSON string at run time.
          body:
            body === undefined ? undefined : JSON.parse(body.replace('$context.error.messageString', '"x"')),
        };
      };
      const json = "'application/json; charset=utf-8'";
      expect(shape('MISSING_AUTHENTICATION_TOKEN')).toEqual({
        status: '404',
        contentType: json,
        body: { error: 'not_found', message: 'No such endpoint' },
      });
      expect(shape('THROTTLED')).toEqual({
        status: '429',
        contentType: json,
        body: { error: 'rate_limit_exceeded', retryAfter: 1 },
      });
      expect(responses.get('THROTTLED')?.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(
        "'1'",
      );
      // The same words as the function's own 413 and the local gateway's: the error catalogue's.
      expect(shape('REQUEST_TOO_LARGE')).toEqual({
        status: '413',
        contentType: json,
        body: { error: 'payload_too_large', message: errorCatalogue.payload_too_large.message },
      });
      expect(shape('RESOURCE_NOT_FOUND')).toMatchObject({ status: '404', body: { error: 'not_found' } });
      expect(shape('ACCESS_DENIED')).toMatchObject({ status: '403', body: { error: 'forbidden' } });
      expect(shape('WAF_FILTERED')).toMatchObject({ status: '403', body: { error: 'forbidden' } });
      expect(shape('UNSUPPORTED_MEDIA_TYPE')).toMatchObject({
        status: '415',
        body: { error: 'unsupported_media_type' },
      });
      expect(shape('DEFAULT_4XX')).toEqual({
        status: undefined,
        contentType: json,
        body: { error: 'bad_request', message: 'x' },
      });
      expect(shape('DEFAULT_5XX')).toEqual({
        status: undefined,
        contentType: json,
        body: { error: 'internal_error', message: 'An unexpected error occurred' },
      });
    },
  );

  it('outputs BaseUrl ending in the v1 stage and BackendUrl ending in the live stage, without trailing slashes', () => {
    const urlOf = (name: string) => {
      const output = template.findOutputs(name)[name] as
        | { Value: { 'Fn::Join': [string, unknown[]] } }
        | undefined;
      const parts = output?.Value['Fn::Join'][1] ?? [];
      return { api: [...referencedIds(parts)].find((id) => id !== 'AWS::URLSuffix'), end: parts.at(-1) };
    };
    expect(urlOf('BaseUrl')).toEqual({ api: apiIdOf('platform'), end: '/v1' });
    expect(urlOf('BackendUrl')).toEqual({ api: apiIdOf('backend'), end: '/live' });
  });
});

// ---- Hardening: what an attacker or an unlucky operator meets after `cdk deploy` -----------------------

describe('PlatformStack, hardened', () => {
  it('puts no secret value and no dynamic reference into any function environment', () => {
    for (const [id, fn] of functions) {
      const variables = JSON.stringify(fn.Properties.Environment?.Variables ?? {});
      expect({ id, dynamicReference: variables.includes('{{resolve:') }).toEqual({
        id,
        dynamicReference: false,
      });
      // A secret may be referred to by ARN (a Ref), never read into a value (Fn::GetAtt/Join of it).
      for (const [name, value] of Object.entries(fn.Properties.Environment?.Variables ?? {})) {
        const secretIds = [...referencedIds(value)].filter(
          (ref) => ref.includes('Secret') || ref.includes('Seed'),
        );
        if (secretIds.length > 0)
          expect({ id, name, value }).toEqual({
            id,
            name: expect.stringMatching(/_ARN$/),
            value: { Ref: secretIds[0] },
          });
      }
    }
  });

  it('grants nothing on * but what X-Ray and the stream event sources require (their actions take no resource)', () => {
    const onStar = resourcesOf('AWS::IAM::Role')
      .flatMap(([roleId]) => roleStatements(roleId))
      .filter((statement) => [statement.Resource].flat().includes('*'))
      .flatMap((statement) => [statement.Action].flat());
    expect(new Set(onStar)).toEqual(
      new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'dynamodb:ListStreams']),
    );
  });

  it('lets only login and key creation put key items; no keyed function deletes or batch-writes them', () => {
    const putters = routes
      .filter((route) => tableGrantsOf(functionOf(route)[1]).get('apiKeys')?.has('dynamodb:PutItem'))
      .map((route) => route.handler);
    expect(sorted(new Set(putters))).toEqual(['create-key', 'create-team-token', 'login']);
    for (const route of routes.filter((candidate) => candidate.access === 'apiKey')) {
      const actions = sorted(tableGrantsOf(functionOf(route)[1]).get('apiKeys') ?? []);
      expect({
        handler: route.handler,
        // A listing reads its page's key items in one BatchGetItem (list-keys): a read, allowed.
        noBatchWriteOrDelete: actions.every((action) => !/BatchWrite|Delete|Condition/.test(action)),
      }).toEqual({
        handler: route.handler,
        noBatchWriteOrDelete: true,
      });
    }
  });

  it('gives the key-signing seed only to the key issuers and the custom resource that derives its public key', () => {
    const readers = functions
      .filter(([, fn]) =>
        statementsOf(fn.Properties).some(
          (statement) =>
            [statement.Action].flat().includes('secretsmanager:GetSecretValue') &&
            refersTo(statement.Resource, secretLogicalId('keySigningSeed')),
        ),
      )
      .map(([, fn]) => fn.Properties.Description);
    expect(sorted(readers.map(String))).toEqual(
      sorted([
        describeFunction('create-key'),
        describeFunction('create-team-token'),
        describeFunction('login'),
        'Custom resource: the public key of the key-signing seed',
      ]),
    );
  });

  it("streams the build log's follow through API Gateway, its function outliving the stream", () => {
    const route = routes.find((row) => row.method === 'GET' && row.path === '/deployments/{id}/logs');
    if (!route) throw new Error('No GET /deployments/{id}/logs row');
    const [functionId, fn] = functionOf(route);
    const [method] = methodsOf('platform').filter(
      (candidate) => candidate.path === route.path && refersTo(candidate.integrationUri, functionId),
    );
    expect(method?.transferMode).toBe('STREAM');
    // The integration's timeout bounds a stream too (29 s unless set): a stream may last 15 minutes.
    expect(method?.timeoutMs).toBe(900_000);
    // The stream ends itself (event: reconnect) after LOG_STREAM_LIFETIME_MS, 14 minutes unless set;
    // the function has Lambda's longest, 15, so that a stream is never cut off by its timeout.
    const lifetimeSeconds = ConfigSchema.parse({}).LOG_STREAM_LIFETIME_MS / 1000;
    expect(fn.Timeout).toBe(900);
    expect(fn.Timeout - lifetimeSeconds).toBeGreaterThanOrEqual(30);
  });

  it('pins the logical ids of every table and secret, so a renamed construct cannot replace one', () => {
    expect(Object.fromEntries(tableKeys.map((key) => [key, tableLogicalId(key)]))).toEqual({
      apiKeys: 'ApiKeysTable9F4DC7E7',
      idempotency: 'IdempotencyTable22A5A209',
      rateLimits: 'RateLimitsTable24B09F2E',
      users: 'UsersTable9725E9C8',
      projects: 'ProjectsTableAA0A2089',
      deployments: 'DeploymentsTable5D087E52',
      webhooks: 'WebhooksTable',
      webhookDeliveries: 'WebhookDeliveriesTable',
      environment: 'EnvironmentTable',
      deploymentLogs: 'DeploymentLogsTable',
      teams: 'TeamsTable',
      domains: 'DomainsTable',
      auditEvents: 'AuditEventsTable',
    });
    expect({
      cursorKey: secretLogicalId('cursorKey'),
      keySigningSeed: secretLogicalId('keySigningSeed'),
    }).toEqual({
      cursorKey: 'CursorSecretABAE1358',
      keySigningSeed: 'KeySigningSeed',
    });
    for (const name of ['cursorKey', 'keySigningSeed'] as const) {
      expect(template.toJSON().Resources[secretLogicalId(name)].DeletionPolicy).toBe('Retain');
    }
  });

  describe('AWS WAF', () => {
    const [found] = resourcesOf<WebAclProps>('AWS::WAFv2::WebACL');
    if (!found) throw new Error('No web ACL');
    const [aclId, acl] = found;
    const rule = (name: string): WafRule => {
      const named = acl.Properties.Rules.find((candidate) => candidate.Name === name);
      if (!named) throw new Error(`No WAF rule ${name}`);
      return named;
    };
    const blockOf = (name: string) => {
      const response = rule(name).Action?.Block.CustomResponse;
      if (!response) throw new Error(`WAF rule ${name} does not block with a response`);
      const body = acl.Properties.CustomResponseBodies[response.CustomResponseBodyKey];
      return { ...response, body: body === undefined ? undefined : JSON.parse(body.Content) };
    };

    it('guards both stages with one regional web ACL', () => {
      expect(acl.Properties.Scope).toBe('REGIONAL');
      const associated = resourcesOf<{ ResourceArn: unknown; WebACLArn: unknown }>(
        'AWS::WAFv2::WebACLAssociation',
      )
        .filter(([, association]) => refersTo(association.Properties.WebACLArn, aclId))
        .map(([, association]) => JSON.stringify(association.Properties.ResourceArn));
      expect(associated).toHaveLength(2);
      for (const group of ['platform', 'backend'] as const) {
        expect(associated.some((arn) => arn.includes(apiIdOf(group)) && arn.includes(`/stages/`))).toBe(true);
      }
    });

    it("answers a body over 64 KiB with the contract's 413, inspecting bodies up to that size", () => {
      expect(rule('BodyTooLarge').Statement.SizeConstraintStatement).toMatchObject({
        FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
        ComparisonOperator: 'GT',
        Size: 65536,
      });
      expect(blockOf('BodyTooLarge')).toMatchObject({
        ResponseCode: 413,
        body: { error: 'payload_too_large', message: errorCatalogue.payload_too_large.message },
      });
      expect(acl.Properties.AssociationConfig).toEqual({
        RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } },
      });
    });

    it('limits requests per source address, more strictly on /auth/*, with 429 and Retry-After', () => {
      const all = rule('RequestsPerAddress');
      const auth = rule('AuthRequestsPerAddress');
      expect(all.Statement.RateBasedStatement).toMatchObject({ Limit: 3000, AggregateKeyType: 'IP' });
      expect(auth.Statement.RateBasedStatement).toMatchObject({
        Limit: 100,
        AggregateKeyType: 'IP',
        ScopeDownStatement: {
          ByteMatchStatement: { SearchString: '/live/auth/', PositionalConstraint: 'STARTS_WITH' },
        },
      });
      for (const name of ['RequestsPerAddress', 'AuthRequestsPerAddress']) {
        expect(blockOf(name)).toMatchObject({
          ResponseCode: 429,
          ResponseHeaders: [{ Name: 'Retry-After', Value: '300' }],
          body: { error: 'rate_limit_exceeded', retryAfter: 300 },
        });
      }
    });

    it('adds only the managed rule groups that never refuse a legitimate request to this API', () => {
      const managed = acl.Properties.Rules.filter(
        (candidate) => candidate.Statement.ManagedRuleGroupStatement !== undefined,
      ).map((candidate) => candidate.Name);
      expect(managed).toEqual([
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesKnownBadInputsRuleSet',
      ]);
    });
  });

  it('reserves 200 executions for the followed log and 100 for the wait by default (300 of the default 1,000), and for the /auth/* functions only when asked to', () => {
    const reservedOf = (synthesized: Template) =>
      Object.fromEntries(
        Object.values(
          synthesized.findResources('AWS::Lambda::Function') as Record<string, CfnResource<FunctionProps>>,
        )
          .filter((fn) => fn.Properties.ReservedConcurrentExecutions !== undefined)
          .map((fn) => [fn.Properties.Description, fn.Properties.ReservedConcurrentExecutions]),
      );
    expect(reservedOf(template)).toEqual({
      [describeFunction('list-deployment-logs')]: 200,
      [describeFunction('wait-for-deployment')]: 100,
    });
    // authReservedConcurrency: 5 and heldOpenReservedConcurrency: false.
    expect(reservedOf(configured())).toEqual({
      [describeFunction('register')]: 5,
      [describeFunction('login')]: 5,
    });
  });

  it('synthesizes two stages side by side in one app with distinct names', () => {
    const app2 = testApp();
    const [production, staging] = [undefined, 'staging'].map((stage) => {
      const { stackName, props } = stackSettingsOf((key) => (key === 'stage' ? stage : undefined));
      return new PlatformStack(app2, stackName, props);
    });
    if (!production || !staging) throw new Error('Two stacks expected');
    expect([production.stackName, staging.stackName]).toEqual(['PlatformStack', 'PlatformStack-staging']);
    // One synthesis of the app for both (Template.fromStack synthesizes it again at each call).
    app2.synth();
    const templateOf = (stack: PlatformStack) => Template.fromJSON(flattenedStack(app2, stack.stackName));
    const namesOf = (stack: PlatformStack) => {
      const synthesized = templateOf(stack);
      return [
        ...Object.values(synthesized.findResources('AWS::ApiGateway::RestApi')).map(
          (api) => api.Properties.Name,
        ),
        ...Object.values(synthesized.findResources('AWS::WAFv2::WebACL')).map((acl) => acl.Properties.Name),
      ];
    };
    expect(namesOf(production)).toEqual(['PlatformApi', 'BackendApi', 'PlatformStack-edge']);
    expect(namesOf(staging)).toEqual([
      'PlatformApi-staging',
      'BackendApi-staging',
      'PlatformStack-staging-edge',
    ]);
    expect(templateOf(staging).findOutputs('Stage')).toEqual({
      Stage: expect.objectContaining({ Value: 'staging' }),
    });
    expect(
      () =>
        stackSettingsOf((key) => (key === 'stage' ? 'Staging!' : undefined)) &&
        new PlatformStack(app2, 'Bad', { stage: 'Staging!' }),
    ).toThrow(/stage/);
  });
});

// ---- Operable: what the people on call get --------------------------------------------------------------

describe('PlatformStack, operable', () => {
  interface AlarmProps {
    AlarmDescription: string;
    Threshold: number;
    AlarmActions: unknown[];
    OKActions: unknown[];
    MetricName?: string;
    Metrics?: { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
  }
  const alarms = resourcesOf<AlarmProps>('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
  const [[topicId] = ['']] = resourcesOf('AWS::SNS::Topic');
  const alarmOn = (text: string): AlarmProps[] =>
    alarms.filter((alarm) => alarm.AlarmDescription.includes(text));
  const metricNamesOf = (alarm: AlarmProps): string[] =>
    alarm.MetricName
      ? [alarm.MetricName]
      : (alarm.Metrics ?? []).flatMap((metric) =>
          metric.MetricStat ? [metric.MetricStat.Metric.MetricName] : [],
        );

  it('sends every alarm, and its return to OK, to one SNS topic', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  it.each(['platform', 'backend'])('alarms on the %s API 5xx rate and p99 latency', (group) => {
    const api = group === 'platform' ? 'Platform' : 'Backend';
    const [errorRate] = alarmOn(`of the ${api} API's requests answered 5xx`);
    const [latency] = alarmOn(`The ${api} API's p99 latency`);
    if (!errorRate || !latency) throw new Error(`Missing alarms for the ${group} API`);
    expect({ metrics: metricNamesOf(errorRate).sort(), threshold: errorRate.Threshold }).toEqual({
      metrics: ['5XXError', 'Count'],
      threshold: 1,
    });
    // Each with the request count, which decides whether a period counts (test/infra/operations.test.ts).
    expect({ metrics: metricNamesOf(latency).sort(), threshold: latency.Threshold }).toEqual({
      metrics: ['Count', 'Latency'],
      threshold: 2500,
    });
  });

  it('alarms on the errors of every function that serves a route, naming it, with one alarm whatever the number of routes, and on throttles once for the region', () => {
    const queries = alarms
      .filter((alarm) => alarm.AlarmDescription.startsWith('A route function'))
      .map((alarm) => ({
        query: alarm.Metrics?.map((metric) => metric.Expression),
        threshold: alarm.Threshold,
      }));
    const over = (metric: string) =>
      `SELECT SUM(${metric}) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE FunctionName LIKE '%-PlatformStack' GROUP BY FunctionName`;
    expect(queries).toEqual([{ query: [over('Errors')], threshold: 5 }]);
    // Each route function is a contributor: its name ends in the stack's name.
    const names = handlers().map((handler) => {
      const [, fn] =
        functions.find(([, candidate]) => candidate.Properties.Description === describeFunction(handler)) ??
        [];
      return (fn?.Properties as { FunctionName?: string } | undefined)?.FunctionName;
    });
    expect(names).toEqual(handlers().map((handler) => `${handler}-PlatformStack`));
    // The consumers keep an alarm each: a fixed few, whatever the routes.
    for (const name of ['WebhookFanOut', 'WebhookDelivery', 'PurgeProject', 'RecheckDomains']) {
      const [faults] = alarmOn(`${name}: `);
      if (!faults) throw new Error(`No fault alarm for ${name}`);
      expect(metricNamesOf(faults)).toEqual(['Errors']);
    }
    const [throttles] = alarmOn('Lambda (the whole region');
    if (!throttles) throw new Error('No throttles alarm');
    expect(metricNamesOf(throttles)).toEqual(['Throttles']);
  });

  it('alarms on throttle events and system errors of every table', () => {
    for (const key of tableKeys) {
      const name = key.charAt(0).toUpperCase() + key.slice(1);
      expect(alarmOn(`The ${name} table (or one of its indexes) throttled`).map(metricNamesOf)[0]).toEqual(
        expect.arrayContaining(['ReadThrottleEvents', 'WriteThrottleEvents']),
      );
      expect(alarmOn(`the ${name} table's requests with system errors`).map(metricNamesOf)[0]).toContain(
        'SystemErrors',
      );
    }
  });

  it('takes alarm thresholds and an email subscription from its settings', () => {
    const thresholds = Object.values(configured().findResources('AWS::CloudWatch::Alarm')).map(
      (alarm) => `${alarm.Properties.AlarmDescription} ${alarm.Properties.Threshold}`,
    );
    expect(thresholds).toContain(
      "More than 5% of the Platform API's requests answered 5xx, in 2 of 3 5-minute periods with 100 requests or more 5",
    );
    expect(thresholds).toContain(
      "The Backend API's p99 latency is above 1000 ms, in 2 of 3 5-minute periods with 100 requests or more 1000",
    );
    configured().hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
    expect(Object.keys(template.findResources('AWS::SNS::Subscription'))).toEqual([]);
  });

  it("has one dashboard, with every route's own metrics under the stack's name when routeMetrics is on", () => {
    const dashboards = Object.entries(
      configured().findResources('AWS::CloudWatch::Dashboard') as Record<
        string,
        CfnResource<{ DashboardBody: unknown }>
      >,
    );
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]?.[1].Properties.DashboardBody);
    for (const route of routes) {
      for (const metric of ['Requests', 'ServerErrors', 'RateLimited', 'Latency']) {
        // The body is JSON inside a CloudFormation string: its quotes arrive escaped.
        const series = `[\\"PlatformApi\\",\\"${metric}\\",\\"Api\\",\\"${route.api}\\",\\"Route\\",\\"${route.method} ${route.path}\\",\\"Service\\",\\"PlatformStack\\"`;
        expect({ route: `${route.method} ${route.path}`, metric, shown: body.includes(series) }).toEqual({
          route: `${route.method} ${route.path}`,
          metric,
          shown: true,
        });
      }
    }
  });

  it('keeps every log group 30 days by default, and as long as the stack is told', () => {
    const retentions = resourcesOf<{ RetentionInDays?: number }>('AWS::Logs::LogGroup').map(
      ([, group]) => group.Properties.RetentionInDays,
    );
    // One per function of ours (routes, consumers, the custom resource), the provider's, two access
    // logs, WAF's.
    expect(retentions.length).toBe(handlers().length + consumerHandlers().length + 5);
    expect(new Set(retentions)).toEqual(new Set([30]));
    expect(
      new Set(
        Object.values(configured().findResources('AWS::Logs::LogGroup')).map(
          (group) => group.Properties.RetentionInDays,
        ),
      ),
    ).toEqual(new Set([90]));
    expect(() => stackSettingsOf((key) => (key === 'logRetentionDays' ? '31' : undefined))).toThrow(
      /logRetentionDays/,
    );
  });

  it.each(['platform', 'backend'] as const)(
    'writes JSON access logs and traces requests on the %s stage',
    (group) => {
      const [stage] = resourcesOf<{
        RestApiId: unknown;
        TracingEnabled: boolean;
        AccessLogSetting: { DestinationArn: unknown; Format: string };
      }>('AWS::ApiGateway::Stage').filter(([, candidate]) =>
        refersTo(candidate.Properties.RestApiId, apiIdOf(group)),
      );
      if (!stage) throw new Error(`No stage for ${group}`);
      const { TracingEnabled, AccessLogSetting } = stage[1].Properties;
      expect(TracingEnabled).toBe(true);
      expect(JSON.parse(AccessLogSetting.Format)).toMatchObject({
        requestId: '$context.requestId',
        status: '$context.status',
        wafStatus: '$context.waf.status',
      });
      const [logGroupId] = referencedIds(AccessLogSetting.DestinationArn);
      expect(template.toJSON().Resources[logGroupId ?? ''].Type).toBe('AWS::Logs::LogGroup');
    },
  );

  it('traces every function actively (the runtime sends the segments: no tracer in the bundles)', () => {
    for (const handler of handlers()) {
      const [, fn] =
        functions.find(([, candidate]) => candidate.Properties.Description === describeFunction(handler)) ??
        [];
      expect({
        handler,
        tracing: (fn?.Properties as { TracingConfig?: unknown } | undefined)?.TracingConfig,
      }).toEqual({
        handler,
        tracing: { Mode: 'Active' },
      });
    }
  });
});

it("deploys the backend stage after the account's API Gateway logging role its access logs need", () => {
  const [[accountId] = ['']] = resourcesOf('AWS::ApiGateway::Account');
  const backendStage = Object.values(
    template.toJSON().Resources as Record<
      string,
      CfnResource<{ RestApiId: unknown }> & { DependsOn?: string[] }
    >,
  ).find(
    (resource) =>
      resource.Type === 'AWS::ApiGateway::Stage' &&
      refersTo(resource.Properties.RestApiId, apiIdOf('backend')),
  );
  expect(backendStage?.DependsOn).toContain(accountId);
});
