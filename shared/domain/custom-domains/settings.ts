import { Resolver } from 'node:dns';
import { DEFAULT_DOMAIN_TARGET } from '#shared/model/custom-domains/domains.ts';

// Where custom domains' DNS checks go and what routing they expect, read once per cold start: a bad
// value fails there, not mid-check. Only the functions that check DNS or add a domain load this.

/** How long one check may wait for DNS, both lookups together, before it reports no answer. */
export const DEFAULT_DOMAIN_CHECK_TIMEOUT_MS = 2_000;

export interface DomainSettings {
  /** `host:port` servers to ask; the system's resolver when undefined. */
  dnsServers: readonly string[] | undefined;
  /** What a domain's CNAME should point at (shown as the routing record's required value). */
  target: string;
  checkTimeoutMs: number;
}

/** The settings from `env`; throws naming the variable that is wrong. */
export function readDomainSettings(env: NodeJS.ProcessEnv = process.env): DomainSettings {
  const servers = env.DNS_SERVERS?.split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  if (servers && servers.length > 0) {
    try {
      // The resolver's own parser: what it accepts is exactly what a check can use.
      new Resolver().setServers(servers);
    } catch {
      throw new Error(`Invalid configuration: DNS_SERVERS must be host:port addresses, comma-separated`);
    }
  }
  const target = (env.DOMAIN_TARGET || DEFAULT_DOMAIN_TARGET).toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9.-]{1,253}$/.test(target) || !target.includes('.'))
    throw new Error('Invalid configuration: DOMAIN_TARGET must be a hostname');
  const timeout = env.DOMAIN_CHECK_TIMEOUT_MS ?? String(DEFAULT_DOMAIN_CHECK_TIMEOUT_MS);
  if (!/^[1-9][0-9]{0,5}$/.test(timeout))
    throw new Error('Invalid configuration: DOMAIN_CHECK_TIMEOUT_MS must be a positive whole number');
  return {
    dnsServers: servers && servers.length > 0 ? servers : undefined,
    target,
    checkTimeoutMs: Number(timeout),
  };
}

export const domainSettings: DomainSettings = readDomainSettings();
