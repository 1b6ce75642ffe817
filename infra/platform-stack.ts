import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { EndpointType, LambdaIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type TableDefinition, type TableKey, tableKeys, tables } from '../shared/db/tables.ts';
import { type ApiGroup, endpointsOf, fallbackOf, type Route, routes } from '../shared/routes.ts';
import { EndpointFunction } from './endpoint-function.ts';
import { addContractGatewayResponses } from './gateway-responses.ts';
import { Webhooks } from './webhooks.ts';

/** Stage names: the platform API's stage makes `{base_url}` end in `/v1`. */
const stageNames: Record<ApiGroup, string> = { platform: 'v1', backend: 'live' };

/** Everything the service runs on, built from the route table and the table declaration alone. */
export class PlatformStack extends Stack {
  readonly tables: Record<TableKey, Table>;
  readonly apis: Record<ApiGroup, RestApi>;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.tables = byKey(tableKeys, (key) => this.addTable(key, tables[key]));

    const cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'HMAC key that signs the opaque list cursors (nextCursor)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    const environment = {
      // List cursors are HMAC-signed with this key on every list request. A dynamic reference resolves
      // it once, at deploy time, into the function's configuration: no Secrets Manager call per request
      // or cold start. Rotating it means redeploying (outstanding cursors then fail as tampered).
      CURSOR_SECRET: cursorSecret.secretValue.unsafeUnwrap(),
    };

    // One function per handler: rows that share one (the docs) are methods of the same function.
    const functions = new Map<string, EndpointFunction>();
    for (const route of routes) {
      if (functions.has(route.handler)) continue;
      functions.set(
        route.handler,
        new EndpointFunction(this, `${pascalCase(route.handler)}Function`, {
          route,
          tables: this.tables,
          environment,
        }),
      );
    }
    const functionOf = (route: Route): EndpointFunction => {
      const fn = functions.get(route.handler);
      if (!fn) throw new Error(`No function for ${route.method} ${route.path}`);
      return fn;
    };

    // Webhooks: the stream consumer, the delivery queue and its function (infra/webhooks.ts).
    new Webhooks(this, 'Webhooks', { tables: this.tables, endpointFunctions: functions });

    this.apis = {
      platform: this.addApi('PlatformApi', 'platform', functionOf),
      backend: this.addApi('BackendApi', 'backend', functionOf),
    };

    new CfnOutput(this, 'BaseUrl', {
      description: '{base_url}: the versioned platform API',
      value: this.stageUrl('platform'),
    });
    new CfnOutput(this, 'BackendUrl', {
      description: '{backend_url}: health, auth and admin endpoints',
      value: this.stageUrl('backend'),
    });
    new CfnOutput(this, 'UsersTableName', {
      description: 'For `npm run create-admin` (USERS_TABLE)',
      value: this.tables.users.tableName,
    });
  }

  private addTable(key: TableKey, definition: TableDefinition): Table {
    const table = new Table(this, `${pascalCase(key)}Table`, {
      billingMode: BillingMode.PAY_PER_REQUEST,
      partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
      sortKey: definition.sortKey ? { name: definition.sortKey, type: AttributeType.STRING } : undefined,
      timeToLiveAttribute: definition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: definition.pointInTimeRecovery },
      stream: definition.stream ? StreamViewType[definition.stream] : undefined,
      // Tables with point-in-time recovery hold data that cannot be recomputed; the rest are counters.
      removalPolicy: definition.pointInTimeRecovery ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const [indexName, index] of Object.entries(definition.indexes ?? {})) {
      table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
        projectionType: ProjectionType.ALL,
      });
    }
    return table;
  }

  /**
   * One REST API per group: a method per row, and the group's fallback function on `ANY` of the root,
   * of `/{proxy+}` and of every resource the rows create, so that unknown paths (404) and known paths
   * with another method (405) reach one function that answers in the contract's format.
   */
  private addApi(id: string, group: ApiGroup, functionOf: (route: Route) => EndpointFunction): RestApi {
    const api = new RestApi(this, id, {
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: false,
      deployOptions: {
        stageName: stageNames[group],
        // A coarse outer guard only: API Gateway documents its throttling as best effort. The per-key
        // limit of the contract is enforced by the functions, in DynamoDB.
        throttlingRateLimit: 1000,
        throttlingBurstLimit: 500,
      },
    });
    addContractGatewayResponses(api);

    const endpoints = endpointsOf(group);
    for (const route of endpoints) {
      // Without test invoke, each method adds one statement to its function's resource policy, not two.
      const integration = new LambdaIntegration(functionOf(route), { allowTestInvoke: false });
      api.root.resourceForPath(route.path).addMethod(route.method, integration);
    }

    const fallback = fallbackOf(group);
    // One API-wide permission instead of one per method keeps the fallback's resource policy small.
    const fallbackIntegration = new LambdaIntegration(functionOf(fallback), {
      scopePermissionToMethod: false,
    });
    for (const path of resourcePaths([...endpoints, fallback])) {
      api.root.resourceForPath(path).addMethod(fallback.method, fallbackIntegration);
    }
    return api;
  }

  /** The stage's invoke URL without a trailing slash (RestApi's own `url` ends in one). */
  private stageUrl(group: ApiGroup): string {
    return `https://${this.apis[group].restApiId}.execute-api.${this.region}.${this.urlSuffix}/${stageNames[group]}`;
  }
}

/** The root and every resource the routes' paths pass through: `/a/{id}/b` gives `/a`, `/a/{id}`, `/a/{id}/b`. */
function resourcePaths(routesOfGroup: readonly Route[]): string[] {
  const paths = new Set<string>(['/']);
  for (const route of routesOfGroup) {
    const parts = route.path.split('/').filter((part) => part !== '');
    parts.forEach((_, index) => {
      paths.add(`/${parts.slice(0, index + 1).join('/')}`);
    });
  }
  return [...paths];
}

function byKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  // Complete by construction: every key of `keys` gets its value.
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}

/** `list-projects` -> `ListProjects`, `apiKeys` -> `ApiKeys`: stable construct ids. */
function pascalCase(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
