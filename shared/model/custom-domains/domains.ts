// A custom domain's life: `pending` from the moment it is added, `verified` once its ownership
// record holds the project's value, `expired` when it was still pending 7 days after it was added.
// Pending domains are checked again by themselves, soon at first and then less and less often.

export const DOMAIN_STATES = ['pending', 'verified', 'expired'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

export const RECORD_STATES = ['ok', 'missing', 'mismatch'] as const;
export type RecordState = (typeof RECORD_STATES)[number];

/**
 * The routing record a name can have: a CNAME, except at an apex (a registrable name such as
 * `example.com`, which holds the zone's SOA and NS records, so DNS allows it no CNAME), where it is
 * an ALIAS (ANAME, or the provider's CNAME flattening): the provider answers the target's addresses.
 */
export const ROUTING_TYPES = ['CNAME', 'ALIAS'] as const;
export type RoutingType = (typeof ROUTING_TYPES)[number];

/**
 * What a domain's CNAME should point at when no target is set (DOMAIN_TARGET, the stack's
 * `-c domainTarget=`): a reserved name (RFC 2606) that resolves nowhere, to be replaced by a real one.
 */
export const DEFAULT_DOMAIN_TARGET = 'cname.platform.example';

/** Names one project may hold at once. */
export const MAX_DOMAINS_PER_PROJECT = 50;

/** How long a domain may stay pending. */
export const DOMAIN_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

/** The first background check comes this long after the domain is added (or last checked)... */
export const FIRST_CHECK_DELAY_MS = 60 * 1000;
/** ...and each after it twice as long after the one before, up to this. */
export const MAX_CHECK_DELAY_MS = 60 * 60 * 1000;

/**
 * When a pending domain is checked next, after `checks` background checks: one minute, two, four,
 * ... an hour at most, and never later than its expiry (the check that finds it expired).
 */
export function nextCheckAtMs(nowMs: number, checks: number, expiresAtMs: number): number {
  const delay = Math.min(FIRST_CHECK_DELAY_MS * 2 ** Math.min(checks, 30), MAX_CHECK_DELAY_MS);
  return Math.min(nowMs + delay, expiresAtMs);
}
