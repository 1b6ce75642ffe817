import type { Domain, DomainRecord, StoredDomain } from '#shared/db/custom-domains/domains.ts';
import { nextCheckAtMs, type RoutingType } from '#shared/model/custom-domains/domains.ts';
import { challengeNameOf, challengeValueOf } from '#shared/model/custom-domains/names.ts';
import { type Answer, startLookups } from './dns.ts';
import type { DomainSettings } from './settings.ts';

// What a domain needs in DNS, what a check finds there, and what the domain becomes after it. The
// ownership record decides (`verified` once it holds the project's value); the routing record is
// reported as found, never required.

const iso = (ms: number): string => new Date(ms).toISOString();

/** The records of a domain not checked yet: what each must hold, nothing seen. */
export function recordsToAdd(
  projectId: string,
  name: string,
  settings: DomainSettings,
  routingType: RoutingType,
): [ownership: DomainRecord, routing: DomainRecord] {
  return [
    {
      purpose: 'ownership',
      type: 'TXT',
      name: challengeNameOf(name),
      requiredValue: challengeValueOf(projectId, name),
      observedValues: [],
      status: 'missing',
      error: null,
    },
    {
      purpose: 'routing',
      type: routingType,
      name,
      requiredValue: settings.target,
      observedValues: [],
      status: 'missing',
      error: null,
    },
  ];
}

/** A record with what DNS answered: `ok` when one value is one of those `accepted`. */
const withAnswer = (record: DomainRecord, answer: Answer, accepted: readonly string[]): DomainRecord => ({
  ...record,
  observedValues: answer.values,
  status: answer.values.some((value) => accepted.includes(value))
    ? 'ok'
    : answer.values.length > 0
      ? 'mismatch'
      : 'missing',
  error: answer.error,
});

/**
 * A domain's records looked up now, all at once, bounded by the settings' timeout. The routing
 * record keeps the type the domain was given when it was added: a CNAME is read as such; an ALIAS
 * is flattened by the provider, so it is seen as the name's addresses, ok when they include one of
 * the target's (a CDN answers a few of many, varying).
 */
export async function checkRecords(
  domain: Pick<Domain, 'projectId' | 'name' | 'records'>,
  settings: DomainSettings,
): Promise<DomainRecord[]> {
  const routingType = domain.records.find((record) => record.purpose === 'routing')?.type;
  const [ownership, routing] = recordsToAdd(
    domain.projectId,
    domain.name,
    settings,
    routingType === 'ALIAS' ? 'ALIAS' : 'CNAME',
  );
  const lookups = startLookups(settings);
  try {
    const txt = lookups.txt(ownership.name);
    if (routing.type === 'CNAME') {
      const [held, pointed] = await Promise.all([txt, lookups.cname(routing.name)]);
      return [
        withAnswer(ownership, held, [ownership.requiredValue]),
        withAnswer(routing, pointed, [settings.target]),
      ];
    }
    const [held, addresses, targets] = await Promise.all([
      txt,
      lookups.addresses(routing.name),
      lookups.addresses(settings.target),
    ]);
    const aliased = withAnswer(routing, addresses, targets.values);
    const targetProblem =
      targets.values.length === 0 ? (targets.error ?? `${settings.target} has no addresses in DNS`) : null;
    return [
      withAnswer(ownership, held, [ownership.requiredValue]),
      { ...aliased, error: aliased.error ?? (aliased.status === 'ok' ? null : targetProblem) },
    ];
  } finally {
    lookups.close();
  }
}

/**
 * The domain after a check at `now` found `records`: verified when its ownership record is ok (a
 * verified domain stays verified); otherwise still pending, and a background check (`background`)
 * moves its next one further out, while one asked for keeps the schedule.
 */
export function afterCheck(
  domain: StoredDomain,
  records: DomainRecord[],
  now: number,
  background: boolean,
): StoredDomain {
  const owned = records.some((record) => record.purpose === 'ownership' && record.status === 'ok');
  const checked = { ...domain, records, lastCheckedAt: iso(now) };
  if (domain.status === 'verified' || owned) {
    return { ...checked, status: 'verified', verifiedAt: domain.verifiedAt ?? iso(now), nextCheckAt: null };
  }
  if (!background) return checked;
  const checks = domain.checks + 1;
  return { ...checked, checks, nextCheckAt: iso(nextCheckAtMs(now, checks, Date.parse(domain.expiresAt))) };
}

/** Whether a pending domain is past its expiry at `now`. */
export const isPastExpiry = (domain: StoredDomain, now: number): boolean =>
  domain.status === 'pending' && now >= Date.parse(domain.expiresAt);

/** The domain expired: checked no more. */
export const expiredDomain = (domain: StoredDomain): StoredDomain => ({
  ...domain,
  status: 'expired',
  nextCheckAt: null,
});
