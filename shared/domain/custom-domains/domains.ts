import { asSystemChange } from '#shared/db/audit/system-changes.ts';
import * as store from '#shared/db/custom-domains/domains.ts';
import type { Page } from '#shared/db/pages.ts';
import { getProject } from '#shared/domain/projects.ts';
import type { Caller } from '#shared/model/caller.ts';
import { normaliseDomainName } from '#shared/model/custom-domains/names.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { afterCheck, checkRecords, expiredDomain, isPastExpiry } from './checks.ts';
import { domainSettings } from './settings.ts';

// A project's custom domains: read, removed, checked now (`verify`), and checked again by themselves
// (recheckDueDomains, the scheduled function's). A domain is found through its project, read with the
// caller's partition like every sub-resource of a project: another's project, or a name it does not
// hold, is the same 404 as none. Adding one is shared/domain/custom-domains/claims.ts.

export type { Domain } from '#shared/db/custom-domains/domains.ts';

const domainNotFound = (name: string) => new NotFoundError(`Domain ${name} was not found`);

const shown = ({ ownerId: _owner, checks: _checks, ...domain }: store.StoredDomain): store.Domain => domain;

/** The stored name a path gives (Unicode or upper case as a client may write it), if it can be one. */
const storedNameOf = (given: string): string | undefined => {
  const normalised = normaliseDomainName(given);
  return normalised.ok ? normalised.name : undefined;
};

/** One of the caller's project's domains, or 404. */
async function projectDomain(caller: Caller, projectId: string, given: string): Promise<store.StoredDomain> {
  await getProject(caller, projectId);
  const name = storedNameOf(given);
  const domain = name === undefined ? undefined : await store.findDomain(name);
  if (!domain || domain.projectId !== projectId) throw domainNotFound(given);
  return domain;
}

export async function listDomains(
  caller: Caller,
  projectId: string,
  page: PageRequest,
): Promise<Page<store.Domain>> {
  await getProject(caller, projectId);
  return store.listDomains(projectId, page);
}

export async function getDomain(caller: Caller, projectId: string, name: string): Promise<store.Domain> {
  return shown(await projectDomain(caller, projectId, name));
}

/** Removes a name from the caller's project: anyone may add it again from then on. */
export async function removeDomain(caller: Caller, projectId: string, given: string): Promise<void> {
  await getProject(caller, projectId);
  const name = storedNameOf(given);
  if (name === undefined || !(await store.deleteDomain(projectId, name))) throw domainNotFound(given);
}

const expiredConflict = (domain: store.Domain) =>
  new ConflictError(
    `The domain ${domain.name} expired at ${domain.expiresAt}, still unverified, and no longer holds the name: anyone may add it now. Remove it and add it again to try once more`,
  );

/**
 * Checks one of the caller's project's domains now and answers it as it is after the check. An
 * expired one is not checked (409). When a background check or a removal got there meanwhile, the
 * domain is answered as that left it (or 404).
 */
export async function verifyDomain(caller: Caller, projectId: string, given: string): Promise<store.Domain> {
  const domain = await projectDomain(caller, projectId, given);
  const now = clock.now();
  if (domain.status === 'expired') throw expiredConflict(domain);
  if (isPastExpiry(domain, now)) {
    const expired = (await store.saveCheck(domain, expiredDomain(domain))) ?? domain;
    throw expiredConflict(expired);
  }
  const records = await checkRecords(domain, domainSettings());
  const saved = await store.saveCheck(domain, afterCheck(domain, records, clock.now(), false));
  if (saved) return saved;
  const current = await store.findDomain(domain.name);
  if (!current || current.projectId !== projectId) throw domainNotFound(given);
  return shown(current);
}

/** Domains checked at once by one background round. */
const CHECK_CONCURRENCY = 10;
/** Domains read per page of the due queue. */
const DUE_PAGE = 50;

export interface RecheckSummary {
  checked: number;
  verified: number;
  expired: number;
}

/**
 * The background round: every pending domain whose check is due, checked (or expired, past its 7
 * days), page by page until none is due or `budgetMs` is spent; what it did. Each write is
 * conditional on the state the check was decided on, so two rounds at once, or a `verify`
 * meanwhile, never undo each other.
 */
export async function recheckDueDomains(budgetMs: number): Promise<RecheckSummary> {
  const summary: RecheckSummary = { checked: 0, verified: 0, expired: 0 };
  const until = clock.now() + budgetMs;
  while (clock.now() < until) {
    const due = await store.dueDomains(clock.now(), DUE_PAGE);
    let moved = 0;
    for (let start = 0; start < due.length; start += CHECK_CONCURRENCY) {
      const outcomes = await Promise.all(due.slice(start, start + CHECK_CONCURRENCY).map(recheck));
      for (const outcome of outcomes) {
        if (outcome === undefined) continue;
        moved++;
        summary[outcome]++;
      }
    }
    // A page that moved nothing (each lost a race, or the index lags its writes) would come back
    // as it is: the next round reads it again.
    if (due.length < DUE_PAGE || moved === 0) break;
  }
  return summary;
}

/** One due domain's background check: what became of it, undefined when another write got there first. */
async function recheck(domain: store.StoredDomain): Promise<keyof RecheckSummary | undefined> {
  const now = clock.now();
  // A check that moves the domain's status is the platform's change, in its team's audit log.
  const save = (next: store.StoredDomain) =>
    next.status === domain.status
      ? store.saveCheck(domain, next)
      : asSystemChange('domain.checked', domain.ownerId, () => store.saveCheck(domain, next));
  if (isPastExpiry(domain, now)) {
    return (await save(expiredDomain(domain))) ? 'expired' : undefined;
  }
  const records = await checkRecords(domain, domainSettings());
  const saved = await save(afterCheck(domain, records, clock.now(), true));
  if (!saved) return undefined;
  return saved.status === 'verified' ? 'verified' : 'checked';
}
