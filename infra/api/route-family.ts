import { Duration, NestedStack } from 'aws-cdk-lib';
import {
  type IResource,
  LambdaIntegration,
  Resource,
  ResponseTransferMode,
  RestApi,
  Stage,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { isFallback, type Route } from '#shared/routes.ts';
import { acknowledgeApiFindings } from '../operations/api-findings.ts';
import type { EndpointFunction } from './endpoint-function.ts';

// The stack grows by routes, and CloudFormation stops a template at 500 resources: so the routes live
// in nested stacks, one per route family (the rows whose paths start with the same segment, e.g.
// /projects/...), while the REST APIs, their stages and everything that holds data stay in the root.
// A family's stack holds its functions (each with its role, inline grants and log group), its API
// Gateway resources, their methods and the functions' invoke permissions. A family is keyed by its
// first path segments, so adding a route never moves another route's resources from one stack to
// another (CloudFormation would replace them, and API Gateway refuses a second resource on a path).
//
// One exception, for the order of a deploy: the functions that sign API keys (infra/access/key-signing.ts)
// must be updated after every function that verifies them, and CloudFormation orders nested stacks as
// wholes. So the issuers' functions and methods live in a family of their own per API, which depends on
// every other; their paths' resources stay with the family of their first segment, and the issuers'
// family adds its methods to those resources by id.
// docs/deploying-stack-structure.md has the numbers.

/** The first segment of a path: `/projects/{id}` -> `projects`. */
export const familyKeyOf = (path: string): string => path.split('/').find((part) => part !== '') ?? '';

/**
 * The families of a group's rows (fallback excluded): rows with the same first segment, and every
 * segment whose rows share a handler with them (one function per handler, in one stack), together.
 */
export function routeFamilies(rows: readonly Route[]): Route[][] {
  const endpoints = rows.filter((route) => !isFallback(route));
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    const up = parent.get(key) ?? key;
    if (up === key) return key;
    const top = find(up);
    parent.set(key, top);
    return top;
  };
  const firstKeyOf = new Map<string, string>();
  for (const route of endpoints) {
    const key = familyKeyOf(route.path);
    parent.set(key, find(key));
    const first = firstKeyOf.get(route.handler);
    if (first === undefined) firstKeyOf.set(route.handler, key);
    else parent.set(find(key), find(first));
  }
  const families = new Map<string, Route[]>();
  for (const route of endpoints) {
    const top = find(familyKeyOf(route.path));
    families.set(top, [...(families.get(top) ?? []), route]);
  }
  return [...families.values()];
}

export interface RouteFamilyProps {
  /** The root stack's API: the family adds its resources and methods to it by id. */
  api: RestApi;
  /** The API's stage, which its methods' invoke permissions name. */
  stageName: string;
  /** The rows whose functions and methods this family holds; every row of each of their handlers. */
  rows: readonly Route[];
  /** Paths whose resources this family creates for another family's methods (the key issuers'). */
  paths?: readonly string[];
  /**
   * The resources another family created: this family adds its methods to them, and creates the
   * resources of its own paths below them (a part of a split family, infra/api/family-split.ts).
   */
  resourceElsewhere?: (path: string) => IResource | undefined;
  /** The sub-tree it holds when it is a part of a split family (`/projects/{id}/env`). */
  subtree?: string;
  /** The group's fallback function (root stack): `ANY` on each resource this family creates. */
  fallback: IFunction;
  /** Builds a handler's function in this stack (infra/platform-stack.ts holds its settings). */
  endpointFunction: (scope: Construct, route: Route, rows: readonly Route[]) => EndpointFunction;
}

/** One route family's functions, resources and methods, in a nested stack of its own. */
export class RouteFamily extends NestedStack {
  readonly functions = new Map<string, EndpointFunction>();
  /** The resources this family created, by path. */
  readonly resources = new Map<string, IResource>();

  constructor(scope: Construct, id: string, props: RouteFamilyProps) {
    const segments = [...props.rows.map((row) => row.path), ...(props.paths ?? [])].map(
      (path) => `/${familyKeyOf(path)}`,
    );
    const under = props.subtree ? [props.subtree] : [...new Set(segments)].sort();
    super(scope, id, { description: `Routes under ${under.join(', ')} (${props.api.node.id})` });
    const api = RestApi.fromRestApiAttributes(this, 'Api', {
      restApiId: props.api.restApiId,
      rootResourceId: props.api.restApiRootResourceId,
    });
    // Invoke permissions name the stage, as the root's did: not test invoke, nor any other stage. A
    // method's ARN reads only the stage's name, given here as a literal: the root's stage resource
    // waits for its deployment, which waits for this stack.
    api.deploymentStage = Stage.fromStageAttributes(this, 'Stage', {
      restApi: api,
      stageName: props.stageName,
    }) as Stage;
    acknowledgeApiFindings(api);

    for (const route of props.rows) {
      if (this.functions.has(route.handler)) continue;
      const rows = props.rows.filter((row) => row.handler === route.handler);
      this.functions.set(route.handler, props.endpointFunction(this, route, rows));
    }

    // A path's resource: made in this stack (with its parents), unless another family made it or
    // one of its parents, which is then imported by id.
    const known = new Map<string, IResource>();
    const resourceOf = (path: string): IResource => {
      if (path === '/') return api.root;
      const made = known.get(path);
      if (made) return made;
      const elsewhere = props.resourceElsewhere?.(path);
      if (elsewhere) {
        const imported = Resource.fromResourceAttributes(
          this,
          `Resource${path.replace(/[^A-Za-z0-9]/g, '_')}`,
          { restApi: api, resourceId: elsewhere.resourceId, path },
        );
        // Its methods are its children, outside the imported API's scope.
        acknowledgeApiFindings(imported);
        known.set(path, imported);
        return imported;
      }
      const parent = resourceOf(path.slice(0, path.lastIndexOf('/')) || '/');
      const part = path.slice(path.lastIndexOf('/') + 1);
      const resource = parent.getResource(part) ?? parent.addResource(part);
      known.set(path, resource);
      this.resources.set(path, resource);
      return resource;
    };
    for (const path of props.paths ?? []) resourceOf(path);
    for (const route of props.rows) {
      const fn = this.functions.get(route.handler);
      if (!fn) throw new Error(`No function for ${route.method} ${route.path}`);
      // Without test invoke, each method adds one statement to its function's resource policy, not two.
      // A row that streams is invoked with InvokeWithResponseStream and its answer passed on as it
      // comes (shared/http/answers/streaming.ts); the integration's timeout, 29 s unless set, bounds a stream
      // too, so it gets the 15 minutes a stream may last.
      resourceOf(route.path).addMethod(
        route.method,
        new LambdaIntegration(fn, {
          allowTestInvoke: false,
          ...(route.streams
            ? { responseTransferMode: ResponseTransferMode.STREAM, timeout: Duration.minutes(15) }
            : {}),
        }),
      );
    }
    // Unknown methods on this family's paths reach the fallback (405 with Allow), as on every path.
    // One API-wide permission per family instead of one per method keeps its resource policy small.
    const fallback = new LambdaIntegration(props.fallback, { scopePermissionToMethod: false });
    for (const resource of this.resources.values()) resource.addMethod('ANY', fallback);
  }
}
