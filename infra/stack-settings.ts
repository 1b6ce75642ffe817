import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type AlarmThresholds, DEFAULT_ALARM_THRESHOLDS } from './operations/alarm-thresholds.ts';
import type { PlatformStackProps } from './platform-stack.ts';

// What `cdk deploy -c name=value` may set, read and checked in one place. Every value is optional:
// without any, the stack is today's `PlatformStack`.
//
//   stage                       e.g. staging: the stack becomes PlatformStack-staging
//   requestsPerAddress          WAF: requests per source address per 5 minutes (default 3000)
//   authRequestsPerAddress      WAF: the same for /auth/* (default 100)
//   authReservedConcurrency     reserved concurrency of each /auth/* function (default: none)
//   heldOpenReservedConcurrency on | off (default on): the followed log's and the wait's reserved
//                               concurrency (off for an account whose quota cannot reserve it)
//   logRetentionDays            days function and access logs are kept (default 30; CloudWatch's values)
//   alarmEmail                  an address subscribed to the alarm topic
//   routeMetrics                on | off (default off): the functions' metrics per route, or per API (docs/costs.md)
//   keySigningSeedVersion       the rotation input of the key-signing seed (README, Rotating the key-signing seed)
//   serverErrorPercent, p99LatencyMs, functionFaults, tableFaults: alarm thresholds (infra/operations/monitoring.ts)
//   domainTarget                the hostname custom domains' CNAME records should point at (default
//                               cname.platform.example, a reserved name: set yours)
//   secretsExtensionLayerArn    the Parameters and Secrets extension's arm64 layer for a region CDK's
//                               table lacks (infra/access/secrets-extension.ts)
//
// And the region, which is not optional (`regionOf`): -c region=..., or AWS_REGION / AWS_DEFAULT_REGION.

export const BASE_STACK_NAME = 'PlatformStack';

type ContextReader = (key: string) => unknown;

function wholeNumber(read: ContextReader, key: string, minimum: number): number | undefined {
  const value = read(key);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) {
    throw new Error(`-c ${key}=${String(value)}: must be a whole number of at least ${minimum}`);
  }
  return number;
}

export function stackSettingsOf(read: ContextReader): { stackName: string; props: PlatformStackProps } {
  const stage = read('stage');
  if (stage !== undefined && typeof stage !== 'string') throw new Error('-c stage must be a name');
  const requestsPerAddress = wholeNumber(read, 'requestsPerAddress', 10);
  const authRequestsPerAddress = wholeNumber(read, 'authRequestsPerAddress', 10);
  const authReservedConcurrency = wholeNumber(read, 'authReservedConcurrency', 1);
  const logRetention = wholeNumber(read, 'logRetentionDays', 1);
  if (logRetention !== undefined && !Object.values(RetentionDays).includes(logRetention)) {
    throw new Error(
      `-c logRetentionDays=${logRetention}: CloudWatch keeps logs 1, 3, 5, 7, 14, 30, 60, 90... days`,
    );
  }
  const alarmEmail = read('alarmEmail');
  if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !alarmEmail.includes('@'))) {
    throw new Error('-c alarmEmail must be an email address');
  }
  const keySigningSeedVersion = read('keySigningSeedVersion');
  if (keySigningSeedVersion !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(String(keySigningSeedVersion))) {
    throw new Error('-c keySigningSeedVersion must be a secret version id (letters, digits, dashes)');
  }
  const routeMetrics = read('routeMetrics');
  if (routeMetrics !== undefined && routeMetrics !== 'on' && routeMetrics !== 'off') {
    throw new Error('-c routeMetrics must be on or off');
  }
  const heldOpen = read('heldOpenReservedConcurrency');
  if (heldOpen !== undefined && heldOpen !== 'on' && heldOpen !== 'off') {
    throw new Error('-c heldOpenReservedConcurrency must be on or off');
  }
  const alarmThresholds: Partial<AlarmThresholds> = {};
  for (const name of Object.keys(DEFAULT_ALARM_THRESHOLDS) as (keyof AlarmThresholds)[]) {
    const value = wholeNumber(read, name, 1);
    if (value !== undefined) alarmThresholds[name] = value;
  }
  const secretsExtensionLayerArn = read('secretsExtensionLayerArn');
  if (secretsExtensionLayerArn !== undefined && typeof secretsExtensionLayerArn !== 'string') {
    throw new Error('-c secretsExtensionLayerArn must be a layer version ARN');
  }
  const domainTarget = read('domainTarget');
  if (
    domainTarget !== undefined &&
    (typeof domainTarget !== 'string' || !/^[a-z0-9-]+(\.[a-z0-9-]+)+\.?$/i.test(domainTarget))
  ) {
    throw new Error('-c domainTarget must be a hostname, such as domains.example.com');
  }
  return {
    stackName: stage === undefined ? BASE_STACK_NAME : `${BASE_STACK_NAME}-${stage}`,
    props: {
      ...(stage === undefined ? {} : { stage }),
      edgeLimits: {
        ...(requestsPerAddress === undefined ? {} : { requestsPerAddress }),
        ...(authRequestsPerAddress === undefined ? {} : { authRequestsPerAddress }),
      },
      ...(authReservedConcurrency === undefined ? {} : { authReservedConcurrency }),
      ...(logRetention === undefined ? {} : { logRetention: logRetention as RetentionDays }),
      ...(alarmEmail === undefined ? {} : { alarmEmail }),
      ...(routeMetrics === undefined ? {} : { routeMetrics: routeMetrics === 'on' }),
      ...(heldOpen === undefined ? {} : { heldOpenReservedConcurrency: heldOpen === 'on' }),
      ...(keySigningSeedVersion === undefined
        ? {}
        : { keySigningSeedVersion: String(keySigningSeedVersion) }),
      ...(secretsExtensionLayerArn === undefined ? {} : { secretsExtensionLayerArn }),
      ...(domainTarget === undefined ? {} : { domainTarget }),
      alarmThresholds,
    },
  };
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * The region the stack is for: `-c region=...`, else AWS_REGION, else AWS_DEFAULT_REGION. Not the CDK
 * CLI's CDK_DEFAULT_REGION: without a configured region the CLI sets it to us-east-1, and a template
 * pinned there by accident lands there or fails elsewhere. No region is an error, in one line.
 */
export function regionOf(read: ContextReader, environment: NodeJS.ProcessEnv): string {
  const given = read('region') ?? environment.AWS_REGION ?? environment.AWS_DEFAULT_REGION;
  if (given === undefined || given === '') {
    throw new Error(
      'No region given: pass -c region=<region> (e.g. -c region=eu-west-1) or set AWS_REGION; the template names its region',
    );
  }
  if (typeof given !== 'string' || !REGION.test(given)) throw new Error(`Not a region: ${String(given)}`);
  return given;
}
