import * as z from 'zod/mini';

// The service's settings, the one place they are read from the environment (the wiring the platform
// and the stack set, table names and the like, is variables.ts'). Read and checked when this module
// loads (once per cold start): a bad value fails there, not mid-request. `config` is one object for
// the life of the process; `reloadSettings` reads the environment into it again (a test that changed
// a setting), so a module that reads `config.X` when it works, not when it loads, sees the change.

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
});

export type Config = z.infer<typeof ConfigSchema>;

/** `schema`'s settings in `env`; throws naming each variable that is wrong. */
export function parseSection<S extends z.ZodMiniType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  // An empty variable is an unset one (`DNS_SERVERS=` in a shell).
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(set);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

const sections: { schema: z.ZodMiniType; values: Record<string, unknown> }[] = [];

/**
 * The settings of one feature, read from the environment and checked now (when the feature's module
 * loads), and again by `reloadSettings`: a feature's settings live with the feature (custom domains',
 * webhooks'), so only the functions that use them carry their schemas.
 */
export function settingsSection<S extends z.ZodMiniType>(schema: S): z.output<S> {
  const values = parseSection(schema, process.env) as Record<string, unknown>;
  sections.push({ schema, values });
  return values as z.output<S>;
}

export const config: Config = parseSection(ConfigSchema, process.env);

/** Reads the environment into `config` and every section again: for tests that change a setting. */
export function reloadSettings(): void {
  for (const { schema, values } of [
    { schema: ConfigSchema, values: config as Record<string, unknown> },
    ...sections,
  ]) {
    const next = parseSection(schema, process.env) as Record<string, unknown>;
    for (const key of Object.keys(values)) if (!(key in next)) delete values[key];
    Object.assign(values, next);
  }
}
