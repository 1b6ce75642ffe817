import { config } from '#shared/runtime/config.ts';

// Where custom domains' DNS checks go and what routing they expect: settings of
// shared/runtime/config.ts, which checks them when it loads (a bad value fails there, not mid-check).

export interface DomainSettings {
  /** `host:port` servers to ask; the system's resolver when undefined. */
  dnsServers: readonly string[] | undefined;
  /** What a domain's CNAME should point at (shown as the routing record's required value). */
  target: string;
  /** How long one check may wait for DNS, both lookups together, before it reports no answer. */
  checkTimeoutMs: number;
}

/** The settings as they are now. */
export const domainSettings = (): DomainSettings => ({
  dnsServers: config.DNS_SERVERS && config.DNS_SERVERS.length > 0 ? config.DNS_SERVERS : undefined,
  target: config.DOMAIN_TARGET,
  checkTimeoutMs: config.DOMAIN_CHECK_TIMEOUT_MS,
});
