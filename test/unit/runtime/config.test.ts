import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Settings are read and checked once, when shared/runtime/config.ts loads: each case loads it in a fresh
// Node process with the given environment.

const run = promisify(execFile);
const CONFIG = join(import.meta.dirname, '../../../shared/runtime/config.ts');
const DOMAIN_SETTINGS = join(import.meta.dirname, '../../../shared/domain/custom-domains/settings.ts');

/** What `module` makes of `env` as it loads: `read(module)` as JSON, or the error's message. */
async function load(env: Record<string, string>, module = CONFIG, read = '(m) => m.config'): Promise<string> {
  const script = `import(${JSON.stringify(module)}).then((m) => console.log(JSON.stringify((${read})(m))), (e) => console.log(e.message))`;
  const { stdout } = await run(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return stdout.trim();
}

describe('configuration', () => {
  it('has its defaults when nothing is set', async () => {
    expect(JSON.parse(await load({}))).toEqual({
      RATE_LIMIT_MAX: 100,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      ANONYMOUS_RATE_LIMIT_MAX: 20,
      AUTH_RATE_LIMIT_MAX: 20,
      LOGIN_EMAIL_RATE_LIMIT_MAX: 10,
      API_KEY_TTL_SECONDS: 2_592_000,
      AUDIT_RETENTION_DAYS: 90,
      REQUEST_DEADLINE_MS: 3_000,
      LOG_STREAM_POLL_MS: 1_000,
      LOG_STREAM_KEEPALIVE_MS: 15_000,
      LOG_STREAM_LIFETIME_MS: 840_000,
      LOG_LEVEL: 'info',
      METRICS_BY_ROUTE: 'on',
      SERVICE_NAME: 'platform-api',
    });
  });

  it("checks the custom domains' settings as their module loads, naming the variable that is wrong", async () => {
    const domains = (env: Record<string, string>) => load(env, DOMAIN_SETTINGS, '(m) => m.domainSettings()');
    expect(JSON.parse(await domains({}))).toEqual({
      target: 'cname.platform.example',
      checkTimeoutMs: 2_000,
    });
    expect(
      JSON.parse(
        await domains({ DNS_SERVERS: '127.0.0.1:5353, [::1]:53', DOMAIN_TARGET: 'Edge.Example.COM.' }),
      ),
    ).toEqual({
      dnsServers: ['127.0.0.1:5353', '[::1]:53'],
      target: 'edge.example.com',
      checkTimeoutMs: 2_000,
    });
    expect(await domains({ DNS_SERVERS: 'not a server' })).toBe(
      'Invalid configuration: DNS_SERVERS must be host:port addresses, comma-separated',
    );
    expect(await domains({ DOMAIN_TARGET: 'localhost' })).toBe(
      'Invalid configuration: DOMAIN_TARGET must be a hostname',
    );
    expect(await domains({ DOMAIN_CHECK_TIMEOUT_MS: '2s' })).toBe(
      'Invalid configuration: DOMAIN_CHECK_TIMEOUT_MS must be a positive whole number',
    );
  });

  it('takes METRICS_BY_ROUTE on or off, and refuses anything else', async () => {
    expect(JSON.parse(await load({ METRICS_BY_ROUTE: 'off' }))).toMatchObject({ METRICS_BY_ROUTE: 'off' });
    expect(await load({ METRICS_BY_ROUTE: 'yes' })).toBe(
      'Invalid configuration: METRICS_BY_ROUTE must be on or off',
    );
  });

  it('takes the stack name as SERVICE_NAME, and refuses what is not one', async () => {
    expect(JSON.parse(await load({ SERVICE_NAME: 'PlatformStack-staging' }))).toMatchObject({
      SERVICE_NAME: 'PlatformStack-staging',
    });
    expect(await load({ SERVICE_NAME: 'two words' })).toBe(
      'Invalid configuration: SERVICE_NAME must be a stack name',
    );
  });

  it('takes LOG_LEVEL silent', async () => {
    expect(JSON.parse(await load({ LOG_LEVEL: 'silent' }))).toMatchObject({ LOG_LEVEL: 'silent' });
  });

  it('fails at load naming every bad setting and what it must be', async () => {
    expect(await load({ LOG_LEVEL: 'loud', RATE_LIMIT_MAX: '0' })).toBe(
      'Invalid configuration: RATE_LIMIT_MAX must be a positive whole number; LOG_LEVEL must be info or silent',
    );
  });
});
