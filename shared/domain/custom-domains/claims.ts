import * as claims from '#shared/db/custom-domains/claims.ts';
import * as store from '#shared/db/custom-domains/domains.ts';
import { reaches } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import {
  DOMAIN_EXPIRY_MS,
  MAX_DOMAINS_PER_PROJECT,
  nextCheckAtMs,
} from '#shared/model/custom-domains/domains.ts';
import { normaliseDomainName } from '#shared/model/custom-domains/names.ts';
import { isApex, isPublicSuffix } from '#shared/model/custom-domains/public-suffixes.ts';
import { ConflictError, NotFoundError, ValidationError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { clock } from '#shared/runtime/clock.ts';
import type { CreateDomainInput } from '#shared/schemas/domains.ts';
import { recordsToAdd } from './checks.ts';
import { domainSettings } from './settings.ts';

// Adding a custom domain to a project: the name normalised and checked (the Public Suffix List is
// loaded by this module alone), then claimed in one transaction that also checks the project and
// its limit (shared/db/custom-domains/domains.ts). Nothing is looked up in DNS yet: the record to create is only
// known from the answer; the first background check comes a minute later, or a `verify` at once.

const projectNotFound = (id: string) => new NotFoundError(`Project ${id} was not found`);

/** The stored form of a name to add; a 400 naming `name` when it cannot be one. */
function acceptableName(given: string): string {
  const normalised = normaliseDomainName(given);
  if (!normalised.ok) throw new ValidationError('name', `name ${normalised.problem}`);
  if (isPublicSuffix(normalised.name)) {
    throw new ValidationError(
      'name',
      `name ${normalised.name} is a public suffix (the Public Suffix List): add a name under it, such as www.${normalised.name}`,
    );
  }
  return normalised.name;
}

/**
 * Claims the name; where a claim holds it that lapsed unverified (expired, or pending past its
 * expiry), takes it over from that claim in one conditional write: a name never verified is held
 * for 7 days, not for as long as its item lasts.
 */
async function claimOrTakeOver(ownerId: string, domain: store.StoredDomain): Promise<claims.ClaimOutcome> {
  const outcome = await claims.claimDomain(ownerId, domain, MAX_DOMAINS_PER_PROJECT);
  if (outcome !== 'taken') return outcome;
  const holder = await store.findDomain(domain.name);
  const now = new Date(clock.now()).toISOString();
  if (!holder || !claims.hasLapsed(holder, now)) return outcome;
  return claims.takeOverLapsed(ownerId, domain, holder, MAX_DOMAINS_PER_PROJECT, now);
}

/**
 * Adds a name to one of the owner's projects (`ownerId`: the partition its projects live in); 404
 * for a project that is not theirs, 409 when the project has its 50 or anyone holds the name.
 */
export async function addDomain(
  caller: Caller,
  projectId: string,
  input: CreateDomainInput,
): Promise<store.Domain> {
  const ownerId = caller.team.partition;
  const name = acceptableName(input.name);
  if (!isIdOf('prj', projectId) || !reaches(caller, projectId)) throw projectNotFound(projectId);
  const now = clock.now();
  const expiresAt = now + DOMAIN_EXPIRY_MS;
  const domain: store.StoredDomain = {
    name,
    projectId,
    status: 'pending',
    records: recordsToAdd(projectId, name, domainSettings(), isApex(name) ? 'ALIAS' : 'CNAME'),
    createdAt: new Date(now).toISOString(),
    verifiedAt: null,
    lastCheckedAt: null,
    nextCheckAt: new Date(nextCheckAtMs(now, 0, expiresAt)).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    ownerId,
    checks: 0,
  };
  const outcome = await claimOrTakeOver(ownerId, domain);
  if (outcome === 'no-project') throw projectNotFound(projectId);
  if (outcome === 'limit') {
    throw new ConflictError(
      `Project ${projectId} has ${MAX_DOMAINS_PER_PROJECT} domains already, the most a project may have; remove one first`,
    );
  }
  // Whoever holds it, this project or another: the answer is the same and names no one.
  if (outcome === 'taken') throw new ConflictError(`The domain ${name} is already added to a project`);
  const { ownerId: _owner, checks: _checks, ...shown } = domain;
  return shown;
}
