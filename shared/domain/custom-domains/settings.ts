import { Resolver } from 'node:dns';
import * as z from 'zod/mini';
import { DEFAULT_DOMAIN_TARGET } from '#shared/model/custom-domains/domains.ts';
import { settingsSection } from '#shared/runtime/config.ts';

// Where custom domains' DNS checks go and what routing they expect: settings read and checked when
// this module loads (shared/runtime/config.ts reads them; a bad value fails the cold start, not a
// check). Only the functions that check DNS or add a domain load this.

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

/** Custom domains' settings and their defaults (docs/running-locally.md lists them; a test compares). */
export const DomainSettingsSchema = z.object({
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

const settings = settingsSection(DomainSettingsSchema);

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
  dnsServers: settings.DNS_SERVERS && settings.DNS_SERVERS.length > 0 ? settings.DNS_SERVERS : undefined,
  target: settings.DOMAIN_TARGET,
  checkTimeoutMs: settings.DOMAIN_CHECK_TIMEOUT_MS,
});
