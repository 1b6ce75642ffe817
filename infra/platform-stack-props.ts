import type { StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Route } from '#shared/routes.ts';
import type { EdgeLimits } from './api/edge-protection.ts';
import type { AlarmThresholds } from './operations/alarm-thresholds.ts';

// What infra/platform-stack.ts can be told, and the limits it checks and applies from it.

/**
 * Reserved concurrency of the functions that hold requests open (docs/operating.md, Held-open
 * requests): each open follow or wait is one execution for up to 14 minutes or 25 s, so they are
 * capped, whatever the number of keys and owners, at a share of the region's default 1,000 that
 * leaves the other functions 700.
 */
export const HELD_OPEN_RESERVED_CONCURRENCY = { streams: 200, waits: 100 } as const;

/** A row's reserved concurrency as a held-open function, if it is one. */
export const heldOpenReservation = (route: Route): number | undefined => {
  if (route.streams) return HELD_OPEN_RESERVED_CONCURRENCY.streams;
  if (route.holdsOpenSeconds !== undefined) return HELD_OPEN_RESERVED_CONCURRENCY.waits;
  return undefined;
};

/** What `cdk deploy` can be told (infra/app.ts reads them from context values). */
export interface PlatformStackProps extends StackProps {
  /**
   * The deployment stage (`-c stage=staging`): its name is part of the stack's and the resources'
   * names, so several stages live side by side in one account and region. Unset: today's names.
   */
  stage?: string;
  /** WAF's per-address limits (infra/api/edge-protection.ts). */
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
  /** When the alarms fire (infra/operations/monitoring.ts). */
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
   * (`-c secretsExtensionLayerArn=...`, infra/access/secrets-extension.ts).
   */
  secretsExtensionLayerArn?: string;
  /**
   * What custom domains' CNAME records should point at (`-c domainTarget=`): the hostname that serves
   * them. Default `cname.platform.example`, a reserved name that resolves nowhere: set it to yours.
   */
  domainTarget?: string;
  /** A handler's entry file: `functions/<feature>/<handler>.ts` unless given (generated rows have none there). */
  functionEntry?: (handler: string) => string | undefined;
}

/** Stage names must fit everywhere they appear: stack names, API names, WAF names. */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;
