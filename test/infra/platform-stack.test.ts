import { App, CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describeFunction } from '../../infra/endpoint-function.ts';
import { PlatformStack } from '../../infra/platform-stack.ts';
import { consumerHandlers } from '../../shared/consumers.ts';
import { type TableDefinition, type TableKey, tableKeys, tables } from '../../shared/db/tables.ts';
import { errorCatalogue } from '../../shared/http/error-catalogue.ts';
import { type ApiGroup, handlers, isFallback, type Route, routes } from '../../shared/routes.ts';

// The stack is synthesized once, with bundling skipped: the template is what is under test, not esbuild.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new PlatformStack(app, 'PlatformStack');
const template = Template.fromStack(stack);

// ---- The template's shapes, as far as these tests read them ------------------------------------------

interface CfnResource<P> {
  Type: string;
  Properties: P;
  DeletionPolicy?: string;
}
interface FunctionProps {
  Description?: string;
  Runtime: string;
  Architectures: string[];
  Timeout: number;
  MemorySize: number;
  Role: unknown;
  Environment?: { Variables: Record<string, unknown> };
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
  Integration: { Uri: unknown };
}
interface PolicyProps {
  Roles: unknown[];
  PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] };
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
}

const methodsOf = (group: ApiGroup): ApiMethod[] =>
  resourcesOf<MethodProps>('AWS::ApiGateway::Method')
    .filter(([, method]) => refersTo(method.Properties.RestApiId, apiIdOf(group)))
    .map(([, method]) => ({
      httpMethod: method.Properties.HttpMethod,
      path: pathOf(method.Properties.ResourceId),
      integrationUri: method.Properties.Integration.Uri,
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
  return stack.getLogicalId(cfnTable);
}

const dynamoTables = new Map(resourcesOf<TableProps>('AWS::DynamoDB::Table'));

const tableKeyByLogicalId = new Map(tableKeys.map((key) => [tableLogicalId(key), key]));

/** DynamoDB actions that the function's role allows, per table of the stack. */
function tableGrantsOf(fn: FunctionProps): Map<TableKey, Set<string>> {
  const [roleId] = referencedIds(fn.Role);
  const grants = new Map<TableKey, Set<string>>();
  const policies = resourcesOf<PolicyProps>('AWS::IAM::Policy').filter(
    ([, policy]) => roleId !== undefined && refersTo(policy.Properties.Roles, roleId),
  );
  for (const [, policy] of policies) {
    for (const statement of policy.Properties.PolicyDocument.Statement) {
      const actions = [statement.Action].flat().filter((action) => action.startsWith('dynamodb:'));
      for (const id of referencedIds(statement.Resource)) {
        const key = tableKeyByLogicalId.get(id);
        if (key === undefined) continue;
        const granted = grants.get(key) ?? new Set<string>();
        for (const action of actions) granted.add(action);
        grants.set(key, granted);
      }
    }
  }
  return grants;
}

// Exactly the operations the code performs: no Scan, no deletes, no batch writes, no streams.
const readActions = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:GetItem',
  'dynamodb:Query',
];
const expectedActions = {
  read: readActions,
  write: [...readActions, 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort(),
  delete: [...readActions, 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort(),
};

const tableKeysOf = (route: Route): TableKey[] => tableKeys.filter((key) => route.tables[key] !== undefined);

const sorted = (values: Iterable<string>): string[] => [...values].sort();

// ---- The tests -----------------------------------------------------------------------------------------

describe('PlatformStack', () => {
  describe.each(
    routes.map((route): [string, Route] => [`${route.method} ${route.path} (${route.api})`, route]),
  )('the route %s', (_, route) => {
    it('has exactly one function, on Node.js 24, arm64, with its memory and a 10 s timeout', () => {
      const [, fn] = functionOf(route);
      expect({
        runtime: fn.Runtime,
        architectures: fn.Architectures,
        timeout: fn.Timeout,
        memory: fn.MemorySize,
      }).toEqual({
        runtime: 'nodejs24.x',
        architectures: ['arm64'],
        timeout: 10,
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

    it('may use exactly the tables its row names, and write only those it writes', () => {
      const [, fn] = functionOf(route);
      const grants = tableGrantsOf(fn);
      expect(sorted(grants.keys())).toEqual(sorted(tableKeysOf(route)));
      for (const key of tableKeysOf(route)) {
        const access = route.tables[key] ?? 'read';
        expect({ table: key, actions: sorted(grants.get(key) ?? []) }).toEqual({
          table: key,
          actions: expectedActions[access],
        });
      }
    });

    it('may query the indexes of each of its tables that has them', () => {
      const [, fn] = functionOf(route);
      const [roleId] = referencedIds(fn.Role);
      const indexed = tableKeysOf(route).filter(
        (key) => Object.keys((tables[key] as TableDefinition).indexes ?? {}).length > 0,
      );
      const statements = resourcesOf<PolicyProps>('AWS::IAM::Policy')
        .filter(([, policy]) => roleId !== undefined && refersTo(policy.Properties.Roles, roleId))
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
      for (const key of indexed) {
        const onIndexes = statements.filter(
          (statement) =>
            [statement.Action].flat().includes('dynamodb:Query') &&
            [statement.Resource]
              .flat()
              .some(
                (resource) =>
                  refersTo(resource, tableLogicalId(key)) && JSON.stringify(resource).includes('/index/*'),
              ),
        );
        expect({ table: key, queriesIndexes: onIndexes.length > 0 }).toEqual({
          table: key,
          queriesIndexes: true,
        });
      }
    });

    it('gets the name variables of exactly its tables, plus the cursor secret and the queue it sends to', () => {
      const [, fn] = functionOf(route);
      const variables = fn.Environment?.Variables ?? {};
      expect(sorted(Object.keys(variables))).toEqual(
        sorted([
          'CURSOR_SECRET',
          ...tableKeysOf(route).map((key) => tables[key].envVar),
          ...(route.queues?.includes('webhookDeliveries') ? ['WEBHOOK_QUEUE_URL'] : []),
        ]),
      );
      for (const key of tableKeysOf(route)) {
        expect(refersTo(variables[tables[key].envVar], tableLogicalId(key))).toBe(true);
      }
    });
  });

  it('deploys one function per handler of the route table and per consumer, and no others', () => {
    expect(functions).toHaveLength(handlers().length + consumerHandlers().length);
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
    expect(Object.keys(fn.Environment?.Variables ?? {})).toEqual(['CURSOR_SECRET']);
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

  it('keeps tables on demand, with their keys, indexes and TTL, and retains those with point-in-time recovery', () => {
    for (const key of tableKeys) {
      const definition: TableDefinition = tables[key];
      const table = dynamoTables.get(tableLogicalId(key));
      if (!table) throw new Error(`No DynamoDB table for ${key}`);
      const keySchema = (partitionKey: string, sortKey?: string) => [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        ...(sortKey ? [{ AttributeName: sortKey, KeyType: 'RANGE' }] : []),
      ];
      expect({ key, ...table.Properties, DeletionPolicy: table.DeletionPolicy }).toMatchObject({
        key,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keySchema(definition.partitionKey, definition.sortKey),
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: definition.pointInTimeRecovery },
        DeletionPolicy: definition.pointInTimeRecovery ? 'Retain' : 'Delete',
      });
      expect(table.Properties.TimeToLiveSpecification?.AttributeName).toBe(definition.ttlAttribute);
      expect(table.Properties.GlobalSecondaryIndexes ?? []).toEqual(
        Object.entries(definition.indexes ?? {}).map(([indexName, index]) => ({
          IndexName: indexName,
          KeySchema: keySchema(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
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
