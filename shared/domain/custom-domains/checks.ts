import type { DomainRecord, StoredDomain } from '#shared/db/custom-domains/domains.ts';
import { challengeNameOf, challengeValueOf } from '#shared/model/domain-names.ts';
import { nextCheckAtMs } from '#shared/model/domains.ts';
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
      type: 'CNAME',
      name,
      requiredValue: settings.target,
      observedValues: [],
      status: 'missing',
      error: null,
    },
  ];
}

/** A record with what DNS answered: `ok` when one value is the required one. */
const withAnswer = (record: DomainRecord, answer: Answer): DomainRecord => ({
  ...record,
  observedValues: answer.values,
  status: answer.values.includes(record.requiredValue)
    ? 'ok'
    : answer.values.length > 0
      ? 'mismatch'
      : 'missing',
  error: answer.error,
});

/** Looks a domain's records up now (both at once, bounded by the settings' timeout). */
export async function checkRecords(
  projectId: string,
  name: string,
  settings: DomainSettings,
): Promise<DomainRecord[]> {
  const [ownership, routing] = recordsToAdd(projectId, name, settings);
  const lookups = startLookups(settings);
  try {
    const [txt, cname] = await Promise.all([lookups.txt(ownership.name), lookups.cname(routing.name)]);
    return [withAnswer(ownership, txt), withAnswer(routing, cname)];
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
