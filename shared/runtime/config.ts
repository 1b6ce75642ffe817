import { Resolver } from 'node:dns';
import * as z from 'zod/mini';

// The one reader of the environment. The settings are read and checked when this module loads (once
// per cold start): a bad value fails there, not mid-request. `config` is one object for the life of
// the process; `reloadSettings` reads the environment into it again (a test that changed a setting),
// so a module that reads `config.X` when it works, not when it loads, sees the change.

/**
 * What a domain's CNAME should point at when no target is set (DOMAIN_TARGET, the stack's
 * `-c domainTarget=`): a reserved name (RFC 2606) that resolves nowhere, to be replaced by a real one.
 */
export const DEFAULT_DOMAIN_TARGET = 'cname.platform.example';

const serverList = (value: string): string[] =>
  value
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);

function dnsServersValid(value: string): boolean {
  try {
    // The resolver's own parser: what it accepts is exactly what a check can use.
    new Resolver().setServers(serverList(value));
    return true;
  } catch {
    return false;
  }
}

const positiveInt = (fallback: number) =>
  z.prefault(
    z.pipe(
      z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, { error: 'must be a positive whole number' })),
      z.transform((value) => Number(value)),
    ),
    String(fallback),
  );

/** The service's settings and their defaults (docs/running-locally.md lists them; a test compares). */
export const ConfigSchema = z.object({
  RATE_LIMIT_MAX: positiveInt(100),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  /** Requests without a valid key, per source address and window: stricter than a key's allowance. */
  ANONYMOUS_RATE_LIMIT_MAX: positiveInt(20),
  /** Requests to /auth/* per source address and window. */
  AUTH_RATE_LIMIT_MAX: positiveInt(20),
  /** Login attempts per email address and window. */
  LOGIN_EMAIL_RATE_LIMIT_MAX: positiveInt(10),
  API_KEY_TTL_SECONDS: positiveInt(30 * 24 * 60 * 60),
  /** How long a team's audit events are kept (the audit table's TTL removes them after). */
  AUDIT_RETENTION_DAYS: positiveInt(90),
  /** How long one request may take, start to answer (shared/runtime/deadline.ts). */
  REQUEST_DEADLINE_MS: positiveInt(3_000),
  /**
   * A followed build log (text/event-stream): how often it looks for new lines and a change of
   * status (each look is two reads), after how long without an event it sends a comment to keep the
   * connection open, and after how long it ends itself with `event: reconnect`, before API Gateway's
   * 15-minute limit on a stream and the function's 15-minute timeout. Tests shorten them.
   */
  LOG_STREAM_POLL_MS: positiveInt(1_000),
  LOG_STREAM_KEEPALIVE_MS: positiveInt(15_000),
  LOG_STREAM_LIFETIME_MS: positiveInt(14 * 60 * 1000),
  /** `silent` drops the access log lines (the test run does); errors are always logged. */
  LOG_LEVEL: z.prefault(z.enum(['info', 'silent'], { error: 'must be info or silent' }), 'info'),
  /**
   * The access line: `json` (one JSON object with the metrics, what CloudWatch reads) or `text` (a
   * short line a person reads); unset, `text` on a terminal and `json` anywhere else (Lambda, a pipe).
   */
  LOG_FORMAT: z.optional(z.enum(['json', 'text'], { error: 'must be json or text' })),
  /**
   * Whether the metrics carry the route as a dimension (`on`: a series per route, about 280 custom
   * metrics; `off`: per API only, about 20). The stack sets it from its `routeMetrics` setting
   * (default off, docs/costs.md); a local run, where metrics are log lines and cost nothing, keeps
   * them per route.
   */
  METRICS_BY_ROUTE: z.prefault(z.enum(['on', 'off'], { error: 'must be on or off' }), 'on'),
  /**
   * The `Service` dimension of the metrics: the stack's name in AWS (so two stages in one account
   * keep their own series), `platform-api` locally.
   */
  SERVICE_NAME: z.prefault(
    z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'must be a stack name')),
    'platform-api',
  ),
  /**
   * `{base_url}` as the docs function serves it in the document (the stack sets it to the platform
   * API's URL); unset, the address the document was fetched from plus `/v1` (one server serves both
   * groups locally).
   */
  PLATFORM_BASE_URL: z.optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /** Set, every store call goes to this DynamoDB (Local) instead of the region's (shared/db/client.ts). */
  DYNAMODB_ENDPOINT: z.optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /** The region the AWS calls go to: Lambda sets it. */
  AWS_REGION: z.optional(z.string()),
  AWS_DEFAULT_REGION: z.optional(z.string()),
  /** `1`: webhooks may reach http, loopback and private receivers (a local run); the stack never sets it. */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z.optional(z.enum(['0', '1'], { error: 'must be 0 or 1' })),
  /** The queue webhook deliveries go through (the stack sets it; locally an in-process queue). */
  WEBHOOK_QUEUE_URL: z.optional(z.string()),
  /** The unit of the webhook retry schedule, in seconds (shared/webhooks/retry-schedule.ts). */
  WEBHOOK_RETRY_BASE_SECONDS: z.prefault(
    z.pipe(
      z.string().check(
        z.regex(/^[0-9]{1,9}(\.[0-9]{1,9})?$/, { error: 'must be a positive number of seconds' }),
        z.refine((value) => Number(value) > 0, 'must be a positive number of seconds'),
      ),
      z.transform((value) => Number(value)),
    ),
    '60',
  ),
  /** Where custom domains' checks ask DNS: `host:port` servers, comma-separated; unset, the system's resolver. */
  DNS_SERVERS: z.optional(
    z.pipe(
      z.string().check(z.refine(dnsServersValid, 'must be host:port addresses, comma-separated')),
      z.transform((value) => serverList(value)),
    ),
  ),
  /** What custom domains' CNAME records should point at: a hostname, stored lower-case without the root dot. */
  DOMAIN_TARGET: z.prefault(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.toLowerCase(),
          z.regex(/^[a-z0-9.-]{1,253}\.?$/, 'must be a hostname'),
          z.includes('.', { error: 'must be a hostname' }),
        ),
      z.transform((value) => value.replace(/\.$/, '')),
    ),
    DEFAULT_DOMAIN_TARGET,
  ),
  /** How long one check of a domain waits for DNS, both lookups together. */
  DOMAIN_CHECK_TIMEOUT_MS: z.prefault(
    z.pipe(
      z.string().check(z.regex(/^[1-9][0-9]{0,5}$/, { error: 'must be a positive whole number' })),
      z.transform((value) => Number(value)),
    ),
    '2000',
  ),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The settings in `env`; throws naming each variable that is wrong. */
export function parseSettings(env: Record<string, string | undefined>): Config {
  // An empty variable is an unset one (`DNS_SERVERS=` in a shell).
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = ConfigSchema.safeParse(set);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export const config: Config = parseSettings(process.env);

/** Reads the environment into `config` again: for tests that change a setting, and put it back. */
export function reloadSettings(): void {
  const next = parseSettings(process.env);
  for (const key of Object.keys(config) as (keyof Config)[]) if (!(key in next)) delete config[key];
  Object.assign(config, next);
}

/**
 * A variable whose name is data, not a setting of its own: a table's name (shared/db/tables.ts), a
 * secret's ARN, a key's id. Read when asked, so a test that sets one is seen at once.
 */
export const variable = (name: string): string | undefined => process.env[name] || undefined;

/** The value of a required variable; throws (at module load, where it is called) when missing. */
export function requireEnv(name: string): string {
  const value = variable(name);
  if (value === undefined) {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}
