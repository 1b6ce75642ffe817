import { join } from 'node:path';
import {
  CfnOutput,
  CfnResource,
  CustomResource,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, type IFunction, ParamsAndSecretsLogLevel, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { type TableDefinition, type TableKey, tableKeys, tables } from '../shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE } from '../shared/domain/key-identity.ts';
import { DEFAULT_DOMAIN_TARGET } from '../shared/model/domains.ts';
import {
  type ApiGroup,
  type FallbackRoute,
  isFallback,
  type Route,
  routes,
  stageNames,
} from '../shared/routes.ts';
import { arnVariableOf, type SecretName } from '../shared/runtime/secrets.ts';
import { type AlarmThresholds, DEFAULT_ALARM_THRESHOLDS } from './alarm-thresholds.ts';
import { acknowledgeApiFindings } from './api-findings.ts';
import { AutoPromotion } from './auto-promotion.ts';
import { DomainChecks } from './domain-checks.ts';
import { DEFAULT_EDGE_LIMITS, type EdgeLimits, EdgeProtection } from './edge-protection.ts';
import { EndpointFunction, FUNCTION_BUNDLING, repoRoot } from './endpoint-function.ts';
import { environmentKey } from './environment-key.ts';
import { splitFamily } from './family-split.ts';
import { functionRole } from './function-role.ts';
import { addContractGatewayResponses } from './gateway-responses.ts';
import { indexesAtStep, indexStepOf } from './index-steps.ts';
import { issueAfterVerifiers, issuesKeys, verifiesKeys } from './key-signing.ts';
import { Monitoring } from './monitoring.ts';
import { pinnedLogicalIds } from './pinned-logical-ids.ts';
import { ProjectPurge } from './project-purge.ts';
import { familyKeyOf, RouteFamily, type RouteFamilyProps, routeFamilies } from './route-family.ts';
import { secretsExtensionLayer } from './secrets-extension.ts';
import { StreamFailures } from './stream-failures.ts';
import { withoutRecoveryBecause } from './tables-without-recovery.ts';
import { WafLogging } from './waf-logging.ts';
import { Webhooks } from './webhooks.ts';

/** What `cdk deploy` can be told (infra/app.ts reads them from context values). */
/**
 * Reserved concurrency of the functions that hold requests open (docs/operating.md, Held-open
 * requests): each open follow or wait is one execution for up to 14 minutes or 25 s, so they are
 * capped, whatever the number of keys and owners, at a share of the region's default 1,000 that
 * leaves the other functions 700.
 */
export const HELD_OPEN_RESERVED_CONCURRENCY = { streams: 200, waits: 100 } as const;

/** A row's reserved concurrency as a held-open function, if it is one. */
const heldOpenReservation = (route: Route): number | undefined => {
  if (route.streams) return HELD_OPEN_RESERVED_CONCURRENCY.streams;
  if (route.holdsOpenSeconds !== undefined) return HELD_OPEN_RESERVED_CONCURRENCY.waits;
  return undefined;
};

export interface PlatformStackProps extends StackProps {
  /**
   * The deployment stage (`-c stage=staging`): its name is part of the stack's and the resources'
   * names, so several stages live side by side in one account and region. Unset: today's names.
   */
  stage?: string;
  /** WAF's per-address limits (infra/edge-protection.ts). */
  edgeLimits?: Partial<EdgeLimits>;
  /**
   * Reserved concurrency for each /auth/* function. Off unless asked for: it caps them and keeps
   * them from starving the rest, but a new account's quota is 10 and the deploy would fail.
   */
  authReservedConcurrency?: number;
  /**
   * Whether the functions that hold requests open (the followed log's, the wait's) get their reserved
   * concurrency (HELD_OPEN_RESERVED_CONCURRENCY). On unless turned off: an account whose concurrency
   * quota is under 1,000 (a new one's may be 10) cannot reserve it, and the deploy would fail.
   */
  heldOpenReservedConcurrency?: boolean;
  /** How long function and access logs are kept (default 30 days). */
  logRetention?: RetentionDays;
  /** When the alarms fire (infra/monitoring.ts). */
  alarmThresholds?: Partial<AlarmThresholds>;
  /** An address subscribed to the alarm topic. */
  alarmEmail?: string;
  /**
   * Whether the functions' metrics carry the route as a dimension (`-c routeMetrics=on`): about 280
   * custom metrics instead of about 20, some $85 a month instead of $6 once every route sees traffic
   * (docs/costs.md). Off by default.
   */
  routeMetrics?: boolean;
  /**
   * The rotation input of the key-signing seed (`-c keySigningSeedVersion=<VersionId>`): a new value
   * makes the custom resource publish the seed's public keys again (README, Rotating the key-signing seed).
   */
  keySigningSeedVersion?: string;
  /**
   * The rows to serve: the route table (shared/routes.ts) unless given. Tests add generated rows to
   * measure what the stack's growth costs.
   */
  routes?: readonly Route[];
  /**
   * The Parameters and Secrets extension's layer version ARN (arm64) for a region CDK's table lacks
   * (`-c secretsExtensionLayerArn=...`, infra/secrets-extension.ts).
   */
  secretsExtensionLayerArn?: string;
  /**
   * What custom domains' CNAME records should point at (`-c domainTarget=`): the hostname that serves
   * them. Default `cname.platform.example`, a reserved name that resolves nowhere: set it to yours.
   */
  domainTarget?: string;
  /** A handler's entry file: `functions/<handler>.ts` unless given (generated rows have none there). */
  functionEntry?: (handler: string) => string | undefined;
}

/** One JSON line per request at the edge, with what WAF decided; the functions log their own line. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    extendedRequestId: AccessLogField.contextExtendedRequestId(),
    time: AccessLogField.contextRequestTime(),
    sourceIp: AccessLogField.contextIdentitySourceIp(),
    userAgent: AccessLogField.contextIdentityUserAgent(),
    method: AccessLogField.contextHttpMethod(),
    resource: AccessLogField.contextResourcePath(),
    path: AccessLogField.contextPath(),
    protocol: AccessLogField.contextProtocol(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationLatency: AccessLogField.contextIntegrationLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    wafStatus: AccessLogField.contextWafStatus(),
    error: AccessLogField.contextErrorMessage(),
  }),
);

/** Stage names must fit everywhere they appear: stack names, API names, WAF names. */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** Everything the service runs on, built from the route table and the table declaration alone. */
export class PlatformStack extends Stack {
  readonly tables: Record<TableKey, Table>;
  readonly secrets: Record<SecretName, Secret>;
  readonly apis: Record<ApiGroup, RestApi>;
  readonly stage: string | undefined;
  readonly monitoring: Monitoring;
  private readonly logRetention: RetentionDays;
  private readonly routes: readonly Route[];
  private readonly secretsExtensionLayerArn: string | undefined;

  constructor(scope: Construct, id: string, props: PlatformStackProps = {}) {
    super(scope, id, props);
    if (props.stage !== undefined && !STAGE_PATTERN.test(props.stage)) {
      throw new Error(
        `stage must be lowercase letters, digits and dashes, starting with a letter: ${props.stage}`,
      );
    }
    this.stage = props.stage;
    this.logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;
    this.routes = props.routes ?? routes;
    this.secretsExtensionLayerArn = props.secretsExtensionLayerArn;

    this.tables = byKey(tableKeys, (key) => this.addTable(key, tables[key]));
    this.secrets = {
      cursorKey: this.addSecret(
        'CursorSecret',
        'HMAC key that signs the opaque list cursors (nextCursor); may be rotated',
        'Rotated on demand with put-secret-value (README); functions accept AWSPREVIOUS, so no rotation function is needed to generate a random value',
      ),
      keySigningSeed: this.addSecret(
        'KeySigningSeed',
        "Seed of the Ed25519 key that signs API keys' identity fields; rotated with put-secret-value, then a deploy with -c keySigningSeedVersion (README)",
        'Rotated on demand with put-secret-value and a deploy that publishes its public key (README, Rotating the key-signing seed); no function is needed to generate a random value',
      ),
    };
    // Serves the secrets on localhost (shared/runtime/secrets.ts); its cache keeps a value a minute.
    const secretsExtension = secretsExtensionLayer(this, this.secretsExtensionLayerArn, {
      secretsManagerTtl: Duration.minutes(1),
      logLevel: ParamsAndSecretsLogLevel.WARN,
    });
    const environment = {
      [PUBLIC_KEYS_VARIABLE]: this.keySigningPublicKey(props.keySigningSeedVersion ?? 'initial'),
    };
    // Seals environment variables; functions use it as their rows say (infra/environment-key.ts).
    const sealingKey = environmentKey(this);

    // One function per handler: rows that share one (the docs) are methods of the same function. The
    // fallbacks' functions live in the root stack beside their APIs; every other row's in its family's
    // nested stack (infra/route-family.ts).
    const endpointFunction = (scope: Construct, route: Route, rows: readonly Route[]): EndpointFunction => {
      const entry = props.functionEntry?.(route.handler);
      return new EndpointFunction(scope, `${pascalCase(route.handler)}Function`, {
        route,
        rows,
        ...(entry === undefined ? {} : { entry }),
        functionName: this.routeFunctionName(route.handler),
        tables: this.tables,
        // Every function names its metrics after the stack; those that admit keys verify them, and
        // those that issue keys sign only with a seed whose public key is published.
        environment: {
          SERVICE_NAME: this.stackName,
          METRICS_BY_ROUTE: props.routeMetrics ? 'on' : 'off',
          ...(verifiesKeys(route) || issuesKeys(route) ? environment : {}),
        },
        secrets: this.secrets,
        secretsExtension,
        environmentKey: sealingKey,
        logRetention: this.logRetention,
        ...(route.access === 'authThrottled' && props.authReservedConcurrency !== undefined
          ? { reservedConcurrency: props.authReservedConcurrency }
          : {}),
        ...(props.heldOpenReservedConcurrency !== false && heldOpenReservation(route) !== undefined
          ? { reservedConcurrency: heldOpenReservation(route) }
          : {}),
      });
    };
    const functions = new Map<string, EndpointFunction>();
    this.apis = {
      platform: this.addApi('PlatformApi', 'platform', endpointFunction, functions),
      backend: this.addApi('BackendApi', 'backend', endpointFunction, functions),
    };

    // Webhooks: the stream consumer, the delivery queue and its function (infra/webhooks.ts).
    const alarmThresholds = { ...DEFAULT_ALARM_THRESHOLDS, ...props.alarmThresholds };
    const streamFailures = new StreamFailures(this, 'StreamFailures');
    const webhooks = new Webhooks(this, 'Webhooks', {
      tables: this.tables,
      endpointFunctions: functions,
      logRetention: this.logRetention,
      onStreamFailure: streamFailures.destination,
    });
    const purge = new ProjectPurge(this, 'ProjectPurge', {
      tables: this.tables,
      logRetention: this.logRetention,
      onFailure: streamFailures.destination,
    });
    streamFailures.watchIteratorAge('WebhookFanOut', webhooks.fanOut, alarmThresholds.iteratorAgeMinutes);
    const autoPromotion = new AutoPromotion(this, 'AutoPromotion', {
      tables: this.tables,
      logRetention: this.logRetention,
      onFailure: streamFailures.destination,
    });
    streamFailures.watchIteratorAge('PurgeProject', purge.function, alarmThresholds.iteratorAgeMinutes);
    // Custom domains: the functions that show or check the routing record know its target.
    const domainTarget = props.domainTarget ?? DEFAULT_DOMAIN_TARGET;
    const domainChecks = new DomainChecks(this, 'DomainChecks', {
      tables: this.tables,
      logRetention: this.logRetention,
      domainTarget,
    });
    for (const handler of ['create-domain', 'verify-domain'])
      functions.get(handler)?.addEnvironment('DOMAIN_TARGET', domainTarget);
    streamFailures.watchIteratorAge(
      'AutoPromote',
      autoPromotion.function,
      alarmThresholds.iteratorAgeMinutes,
    );

    issueAfterVerifiers(functions.values());
    // The served document's `{base_url}` default, so that the docs page's "Try it out" calls this stack's
    // platform API (functions/docs.ts); the backend's it takes from the request.
    functions.get('docs')?.addEnvironment('PLATFORM_BASE_URL', this.stageUrl('platform'));

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "X-Ray's PutTraceSegments and PutTelemetryRecords (active tracing) and ListStreams (the stream consumers' event sources) take no resource-level permissions; a template test checks that no other grant is on *",
    });

    // The backend stage's access logs need the account setting that the platform API makes.
    const loggingRole = this.apis.platform.node.tryFindChild('Account');
    if (loggingRole) this.apis.backend.deploymentStage.node.addDependency(loggingRole);

    const edge = new EdgeProtection(this, 'EdgeProtection', {
      name: this.named('edge'),
      limits: { ...DEFAULT_EDGE_LIMITS, ...props.edgeLimits },
      apis: [this.apis.platform, this.apis.backend],
      authPathPrefix: `/${stageNames.backend}/auth/`,
    });
    new WafLogging(this, 'WafLogging', {
      webAcl: edge.webAcl,
      name: this.stackName,
      retention: this.logRetention,
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      thresholds: alarmThresholds,
      ...(props.alarmEmail === undefined ? {} : { alarmEmail: props.alarmEmail }),
      apis: { Platform: this.apis.platform, Backend: this.apis.backend },
      routeFunctionSuffix: `-${this.stackName}`,
      functions: new Map<string, IFunction>([
        ['WebhookFanOut', webhooks.fanOut],
        ['WebhookDelivery', webhooks.delivery],
        ['PurgeProject', purge.function],
        ['AutoPromote', autoPromotion.function],
        ['RecheckDomains', domainChecks.function],
      ]),
      tables: Object.fromEntries(tableKeys.map((key) => [pascalCase(key), this.tables[key]])),
      tableIndexes: Object.fromEntries(
        tableKeys.map((key) => [
          pascalCase(key),
          Object.keys((tables[key] as TableDefinition).indexes ?? {}),
        ]),
      ),
      transactionTables: [
        this.tables.users,
        this.tables.webhooks,
        this.tables.apiKeys,
        this.tables.environment,
        this.tables.projects,
        this.tables.deploymentLogs,
        this.tables.deployments,
        this.tables.domains,
      ],
      dashboardName: this.named('operations'),
      routeMetrics: props.routeMetrics ?? false,
      serviceName: this.stackName,
      routes: this.routes,
    });

    for (const alarm of [webhooks.deadLetterAlarm, ...streamFailures.alarms]) {
      alarm.addAlarmAction(this.monitoring.action);
      alarm.addOkAction(this.monitoring.action);
    }

    if (props.stage !== undefined) {
      new CfnOutput(this, 'Stage', { description: 'The deployment stage of this stack', value: props.stage });
    }
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

  /** A log group that keeps lines for the stack's retention, and goes with the stack. */
  private logGroup(id: string): LogGroup {
    return new LogGroup(this, id, { retention: this.logRetention, removalPolicy: RemovalPolicy.DESTROY });
  }

  /** A resource name unique to this stack, and so to its stage. */
  private named(name: string): string {
    return `${this.stackName}-${name}`;
  }

  private addTable(key: TableKey, definition: TableDefinition): Table {
    const table = new Table(this, `${pascalCase(key)}Table`, {
      billingMode: BillingMode.PAY_PER_REQUEST,
      partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
      sortKey: definition.sortKey ? { name: definition.sortKey, type: AttributeType.STRING } : undefined,
      timeToLiveAttribute: definition.ttlAttribute,
      // No table goes with a mistake: a `cdk destroy`, a deleted stack, a console click, or a change
      // that gives it another logical id (CloudFormation would make a new, empty table and delete the
      // old one; the ids are pinned as well, below). A table left behind by a deleted stack costs
      // nothing but its storage, and TTL empties the disposable ones. Users' data also survives a bad
      // write (point-in-time recovery); the tables that do without say why (shared/db/tables.ts).
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: definition.pointInTimeRecovery },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      stream: definition.stream ? StreamViewType[definition.stream] : undefined,
    });
    pinLogicalId(table, pinnedLogicalIds.tables[key]);
    if (!definition.pointInTimeRecovery) {
      const reason = withoutRecoveryBecause[key];
      if (!reason)
        throw new Error(
          `${key} has no point-in-time recovery and no reason why (infra/tables-without-recovery.ts)`,
        );
      Validations.of(table).acknowledge({ id: 'AwsSolutions-DDB3', reason });
    }
    // One index change per table and deploy on a stack deployed before: infra/index-steps.ts.
    for (const index of indexesAtStep(definition, indexStepOf(this.node.tryGetContext('indexStep')))) {
      const projection = index.projection ?? 'ALL';
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
        ...(typeof projection === 'string'
          ? { projectionType: ProjectionType[projection] }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...projection] }),
      });
    }
    return table;
  }

  /** A generated secret, kept when the stack goes (a new one would log everyone out). */
  private addSecret(
    id: keyof typeof pinnedLogicalIds.secrets,
    description: string,
    whyNoRotationSchedule: string,
  ): Secret {
    const secret = new Secret(this, id, {
      description,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    pinLogicalId(secret, pinnedLogicalIds.secrets[id]);
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: whyNoRotationSchedule });
    return secret;
  }

  /**
   * The public half of the key-signing seed, made at deploy time by a custom resource that may read
   * the seed: the verifying functions get it as a plain variable, and never the seed. `seedVersion` is
   * its one property: a new value after a rotation makes CloudFormation run it again.
   */
  private keySigningPublicKey(seedVersion: string): string {
    const onEventLogs = this.logGroup('KeySigningPublicKeyLogs');
    const onEvent = new NodejsFunction(this, 'KeySigningPublicKeyFunction', {
      description: 'Custom resource: the public key of the key-signing seed',
      entry: join(repoRoot, 'infra', 'custom-resources', 'key-signing-public-key.ts'),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: Duration.seconds(30),
      // No cache in its extension: a deploy right after a rotation must read the new seed.
      paramsAndSecrets: secretsExtensionLayer(this, this.secretsExtensionLayerArn, {
        secretsManagerTtl: Duration.seconds(0),
        logLevel: ParamsAndSecretsLogLevel.WARN,
      }),
      environment: { [arnVariableOf('keySigningSeed')]: this.secrets.keySigningSeed.secretArn },
      bundling: FUNCTION_BUNDLING,
      logGroup: onEventLogs,
      role: functionRole(this, 'KeySigningPublicKeyRole', onEventLogs),
    });
    this.secrets.keySigningSeed.grantRead(onEvent);
    const provider = new Provider(this, 'KeySigningPublicKeyProvider', {
      onEventHandler: onEvent,
      logGroup: this.logGroup('KeySigningPublicKeyProviderLogs'),
    });
    Validations.of(provider).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: "CDK's provider framework function builds its own role; it runs only during deploys",
    });
    Validations.of(provider).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.resolve((onEvent.node.defaultChild as CfnResource).logicalId)}.Arn>:*]`,
      reason: 'The provider framework invokes the one onEvent function, any of its versions',
    });
    const publicKey = new CustomResource(this, 'KeySigningPublicKey', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::KeySigningPublicKey',
      properties: { SeedVersion: seedVersion },
    });
    return publicKey.getAttString('PublicKeys');
  }

  /**
   * One REST API per group, in the root stack with its stage, its gateway responses and its fallback
   * function: `ANY` on the root and on `/{proxy+}` here, and on every resource the rows create in their
   * families' nested stacks, so that unknown paths (404) and known paths with another method (405)
   * reach one function that answers in the contract's format. The families add a method per row.
   */
  private addApi(
    id: string,
    group: ApiGroup,
    endpointFunction: (scope: Construct, route: Route, rows: readonly Route[]) => EndpointFunction,
    functions: Map<string, EndpointFunction>,
  ): RestApi {
    const api = new RestApi(this, id, {
      // Today's names without a stage; with one, the stage is in them.
      restApiName: this.stage === undefined ? id : `${id}-${this.stage}`,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Access logs need the account's API Gateway logging role (a regional account setting): the
      // platform API sets it, kept when the stack goes, since other stacks may rely on it.
      ...(group === 'platform'
        ? { cloudWatchRole: true, cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN }
        : { cloudWatchRole: false }),
      deployOptions: {
        stageName: stageNames[group],
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.logGroup(`${id}AccessLogs`)),
        accessLogFormat: ACCESS_LOG_FORMAT,
        // A coarse outer guard only: API Gateway documents its throttling as best effort. The per-key
        // limit of the contract is enforced by the functions, in DynamoDB.
        throttlingRateLimit: 1000,
        throttlingBurstLimit: 500,
      },
    });
    addContractGatewayResponses(api);
    acknowledgeApiFindings(api);

    const rows = this.routes.filter((route) => route.api === group);
    const fallback = rows.find((route): route is FallbackRoute => isFallback(route));
    if (!fallback) throw new Error(`No fallback route for the ${group} API`);
    const fallbackFunction = endpointFunction(this, fallback, [fallback]);
    functions.set(fallback.handler, fallbackFunction);
    // One API-wide permission instead of one per method keeps the fallback's resource policy small.
    const fallbackIntegration = new LambdaIntegration(fallbackFunction, { scopePermissionToMethod: false });
    api.root.addMethod(fallback.method, fallbackIntegration);
    api.root.resourceForPath(fallback.path).addMethod(fallback.method, fallbackIntegration);

    const deployment = api.latestDeployment;
    if (!deployment) throw new Error(`The ${group} API has no deployment`);
    // The families of the rows, and last the key issuers' (infra/route-family.ts): their paths' resources
    // are made by the family of the same first segment (or one of their own, where none has it).
    const issuerRows = rows.filter((route) => !isFallback(route) && issuesKeys(route));
    const families = routeFamilies(rows.filter((route) => !issuesKeys(route))).map((familyRows) => ({
      keys: new Set(familyRows.map((route) => familyKeyOf(route.path))),
      rows: familyRows,
      paths: [] as string[],
    }));
    for (const { path } of issuerRows) {
      const key = familyKeyOf(path);
      const family = families.find((candidate) => candidate.keys.has(key));
      if (family) family.paths.push(path);
      else families.push({ keys: new Set([key]), rows: [], paths: [path] });
    }
    const resources = new Map<string, IResource>();
    const addFamily = (
      name: string,
      props: Omit<RouteFamilyProps, 'api' | 'stageName' | 'fallback' | 'endpointFunction'>,
    ) => {
      const family = new RouteFamily(this, `${id}${name}Routes`, {
        ...props,
        api,
        stageName: stageNames[group],
        fallback: fallbackFunction,
        endpointFunction,
      });
      for (const [handler, fn] of family.functions) functions.set(handler, fn);
      for (const [path, resource] of family.resources) resources.set(path, resource);
      // The stage's deployment comes after the families' methods, and a new one whenever the rows
      // change: CDK cannot see methods made in other stacks.
      deployment.node.addDependency(family);
    };
    // A family past its budget splits into its own stack and one per sub-tree that does not fit
    // (infra/family-split.ts); the parts after the first add theirs below the resources it created.
    for (const family of families) {
      const [own, ...subtrees] = splitFamily(family.rows, family.paths);
      addFamily(familyIdOf(family.keys), { rows: own?.rows ?? [], paths: own?.paths ?? [] });
      for (const part of subtrees) {
        addFamily(pathIdOf(part.subtree ?? ''), {
          rows: part.rows,
          paths: part.paths,
          ...(part.subtree === undefined ? {} : { subtree: part.subtree }),
          resourceElsewhere: (path) => resources.get(path),
        });
      }
    }
    if (issuerRows.length > 0) {
      addFamily('KeyIssuers', { rows: issuerRows, resourceElsewhere: (path) => resources.get(path) });
    }
    deployment.addToLogicalId({
      rows: rows.map((route) => `${route.method} ${route.path} ${route.handler}`),
    });
    return api;
  }

  /**
   * A route function's name: the handler, then the stack's name (`list-projects-PlatformStack`). The
   * alarms find the stack's route functions by that ending (infra/monitoring.ts); another stage's
   * names end in `-PlatformStack-<stage>`, so they never match, whatever LIKE makes of `_`.
   */
  private routeFunctionName(handler: string): string {
    const name = `${handler}-${this.stackName}`;
    if (name.length > 64) throw new Error(`Function name over 64 characters: ${name}`);
    return name;
  }

  /** The stage's invoke URL without a trailing slash (RestApi's own `url` ends in one). */
  private stageUrl(group: ApiGroup): string {
    return `https://${this.apis[group].restApiId}.execute-api.${this.region}.${this.urlSuffix}/${stageNames[group]}`;
  }
}

/** A family's construct id from its first segments: `projects` -> `Projects`, `openapi.json` -> `OpenapiJson`. */
function familyIdOf(keys: ReadonlySet<string>): string {
  return [...keys]
    .sort()
    .map((key) =>
      key
        .split(/[^A-Za-z0-9]+/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join(''),
    )
    .join('');
}

/** A sub-tree's construct id from its path: `/projects/{id}/env` -> `ProjectsIdEnv`. */
const pathIdOf = (path: string): string => familyIdOf(new Set([path]));

function byKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  // Complete by construction: every key of `keys` gets its value.
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}

/**
 * Keeps a stateful resource's logical id whatever its construct is called: CloudFormation replaces a
 * resource whose logical id changes, which for a table means a new, empty one.
 */
function pinLogicalId(construct: Construct, logicalId: string): void {
  const resource = construct.node.defaultChild;
  if (!(resource instanceof CfnResource))
    throw new Error(`${construct.node.path} has no CloudFormation resource`);
  resource.overrideLogicalId(logicalId);
}

/** `list-projects` -> `ListProjects`, `apiKeys` -> `ApiKeys`: stable construct ids. */
function pascalCase(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
