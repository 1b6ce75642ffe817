import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IFunction, ParamsAndSecretsLogLevel } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type TableDefinition, type TableKey, tableKeys, tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE } from '#shared/domain/key-identity.ts';
import { type ApiGroup, type Route, routes, stageNames } from '#shared/routes.ts';
import type { SecretName } from '#shared/runtime/secrets.ts';
import { environmentKey } from './access/environment-key.ts';
import { issueAfterVerifiers, issuesKeys, verifiesKeys } from './access/key-signing.ts';
import { secretsExtensionLayer } from './access/secrets-extension.ts';
import { DEFAULT_EDGE_LIMITS, EdgeProtection } from './api/edge-protection.ts';
import { EndpointFunction } from './api/endpoint-function.ts';
import { addRestApi, type EndpointFunctionFactory } from './api/rest-api.ts';
import { WafLogging } from './api/waf-logging.ts';
import { pascalCase, pinLogicalId } from './construct-ids.ts';
import { DomainChecks } from './consumers/domain-checks.ts';
import { StreamFailures } from './consumers/stream-failures.ts';
import { addStreamConsumers } from './consumers/streams.ts';
import { Webhooks } from './consumers/webhooks.ts';
import { keySigningPublicKey } from './custom-resources/key-signing-public-key-resource.ts';
import { dataTable } from './data/data-table.ts';
import { indexStepOf } from './data/index-steps.ts';
import { pinnedLogicalIds } from './data/pinned-logical-ids.ts';
import { DEFAULT_ALARM_THRESHOLDS } from './operations/alarm-thresholds.ts';
import { acknowledgeFunctionFindings } from './operations/function-findings.ts';
import { Monitoring } from './operations/monitoring.ts';
import { heldOpenReservation, type PlatformStackProps, STAGE_PATTERN } from './platform-stack-props.ts';

export type { PlatformStackProps } from './platform-stack-props.ts';

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

    const indexStep = indexStepOf(this.node.tryGetContext('indexStep'));
    this.tables = byKey(tableKeys, (key) => dataTable(this, key, tables[key], indexStep));
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
      [PUBLIC_KEYS_VARIABLE]: keySigningPublicKey(this, {
        seed: this.secrets.keySigningSeed,
        seedVersion: props.keySigningSeedVersion ?? 'initial',
        secretsExtensionLayerArn: this.secretsExtensionLayerArn,
        logGroup: (id) => this.logGroup(id),
      }),
    };
    // Seals environment variables; functions use it as their rows say (infra/access/environment-key.ts).
    const sealingKey = environmentKey(this);

    // One function per handler: rows that share one (the docs) are methods of the same function. The
    // fallbacks' functions live in the root stack beside their APIs; every other row's in its family's
    // nested stack (infra/api/route-family.ts).
    const endpointFunction: EndpointFunctionFactory = (scope, route, rows) => {
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

    // Webhooks: the stream consumer, the delivery queue and its function (infra/consumers/webhooks.ts).
    const alarmThresholds = { ...DEFAULT_ALARM_THRESHOLDS, ...props.alarmThresholds };
    const streamFailures = new StreamFailures(this, 'StreamFailures');
    const webhooks = new Webhooks(this, 'Webhooks', {
      tables: this.tables,
      endpointFunctions: functions,
      logRetention: this.logRetention,
      onStreamFailure: streamFailures.destination,
    });
    // Custom domains: their background checks, and the routing target the functions show.
    const domainChecks = new DomainChecks(this, 'DomainChecks', {
      tables: this.tables,
      logRetention: this.logRetention,
      endpointFunctions: functions,
      ...(props.domainTarget === undefined ? {} : { domainTarget: props.domainTarget }),
    });
    streamFailures.watchIteratorAge('WebhookFanOut', webhooks.fanOut, alarmThresholds.iteratorAgeMinutes);
    const { purge, autoPromotion, auditTrail } = addStreamConsumers(this, {
      tables: this.tables,
      logRetention: this.logRetention,
      streamFailures,
      iteratorAgeMinutes: alarmThresholds.iteratorAgeMinutes,
    });

    issueAfterVerifiers(functions.values());
    // The served document's `{base_url}` default, so that the docs page's "Try it out" calls this stack's
    // platform API (functions/service/docs.ts); the backend's it takes from the request.
    functions.get('docs')?.addEnvironment('PLATFORM_BASE_URL', this.stageUrl('platform'));

    acknowledgeFunctionFindings(this);

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
        ['RecordAuditEvents', auditTrail.function],
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
        this.tables.teams,
        this.tables.auditEvents,
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

  /** One REST API of the route table's group (infra/api/rest-api.ts), its access logs in this stack. */
  private addApi(
    id: string,
    group: ApiGroup,
    endpointFunction: EndpointFunctionFactory,
    functions: Map<string, EndpointFunction>,
  ): RestApi {
    return addRestApi(this, id, {
      group,
      routes: this.routes,
      stage: this.stage,
      accessLogs: this.logGroup(`${id}AccessLogs`),
      endpointFunction,
      functions,
    });
  }

  /** A resource name unique to this stack, and so to its stage. */
  private named(name: string): string {
    return `${this.stackName}-${name}`;
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
   * A route function's name: the handler, then the stack's name (`list-projects-PlatformStack`). The
   * alarms find the stack's route functions by that ending (infra/operations/monitoring.ts); another stage's
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

function byKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  // Complete by construction: every key of `keys` gets its value.
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}
