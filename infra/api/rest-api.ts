import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type ApiGroup, type FallbackRoute, isFallback, type Route, stageNames } from '#shared/routes.ts';
import { issuesKeys } from '../access/key-signing.ts';
import { acknowledgeApiFindings } from '../operations/api-findings.ts';
import type { EndpointFunction } from './endpoint-function.ts';
import { splitFamily } from './family-split.ts';
import { addContractGatewayResponses } from './gateway-responses.ts';
import { familyKeyOf, RouteFamily, type RouteFamilyProps, routeFamilies } from './route-family.ts';

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

/** Makes a row's function in `scope`; the rows that share its handler are its other methods. */
export type EndpointFunctionFactory = (
  scope: Construct,
  route: Route,
  rows: readonly Route[],
) => EndpointFunction;

export interface RestApiProps {
  group: ApiGroup;
  /** Every row of the stack (those of other groups are left out here). */
  routes: readonly Route[];
  /** The deployment stage, part of the API's name when set. */
  stage: string | undefined;
  /** The access log group of this API, made in the stack. */
  accessLogs: ILogGroup;
  endpointFunction: EndpointFunctionFactory;
  /** Each handler's function, filled in as the API's rows get theirs. */
  functions: Map<string, EndpointFunction>;
}

/**
 * One REST API per group, in `scope` (the root stack) with its stage, its gateway responses and its
 * fallback function: `ANY` on the root and on `/{proxy+}` here, and on every resource the rows create
 * in their families' nested stacks, so that unknown paths (404) and known paths with another method
 * (405) reach one function that answers in the contract's format. The families add a method per row.
 */
export function addRestApi(scope: Construct, id: string, props: RestApiProps): RestApi {
  const { group, endpointFunction, functions } = props;
  const api = new RestApi(scope, id, {
    // Today's names without a stage; with one, the stage is in them.
    restApiName: props.stage === undefined ? id : `${id}-${props.stage}`,
    endpointConfiguration: { types: [EndpointType.REGIONAL] },
    // Access logs need the account's API Gateway logging role (a regional account setting): the
    // platform API sets it, kept when the stack goes, since other stacks may rely on it.
    ...(group === 'platform'
      ? { cloudWatchRole: true, cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN }
      : { cloudWatchRole: false }),
    deployOptions: {
      stageName: stageNames[group],
      tracingEnabled: true,
      accessLogDestination: new LogGroupLogDestination(props.accessLogs),
      accessLogFormat: ACCESS_LOG_FORMAT,
      // A coarse outer guard only: API Gateway documents its throttling as best effort. The per-key
      // limit of the contract is enforced by the functions, in DynamoDB.
      throttlingRateLimit: 1000,
      throttlingBurstLimit: 500,
    },
  });
  addContractGatewayResponses(api);
  acknowledgeApiFindings(api);

  const rows = props.routes.filter((route) => route.api === group);
  const fallback = rows.find((route): route is FallbackRoute => isFallback(route));
  if (!fallback) throw new Error(`No fallback route for the ${group} API`);
  const fallbackFunction = endpointFunction(scope, fallback, [fallback]);
  functions.set(fallback.handler, fallbackFunction);
  // One API-wide permission instead of one per method keeps the fallback's resource policy small.
  const fallbackIntegration = new LambdaIntegration(fallbackFunction, { scopePermissionToMethod: false });
  api.root.addMethod(fallback.method, fallbackIntegration);
  api.root.resourceForPath(fallback.path).addMethod(fallback.method, fallbackIntegration);

  const deployment = api.latestDeployment;
  if (!deployment) throw new Error(`The ${group} API has no deployment`);
  // The families of the rows, and last the key issuers' (infra/api/route-family.ts): their paths' resources
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
    familyProps: Omit<RouteFamilyProps, 'api' | 'stageName' | 'fallback' | 'endpointFunction'>,
  ) => {
    const family = new RouteFamily(scope, `${id}${name}Routes`, {
      ...familyProps,
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
  // (infra/api/family-split.ts); the parts after the first add theirs below the resources it created.
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
