import { createHash } from 'node:crypto';
import { domainToASCII, domainToUnicode } from 'node:url';

// What a custom domain's name may be, and the records that go with it. A name is stored as DNS
// sees it: lower case, each Unicode label as its A-label (`bücher.de` is `xn--bcher-kva.de`), no
// trailing dot. Whether it is a public suffix is the Public Suffix List's answer
// (shared/model/custom-domains/public-suffixes.ts), kept apart so that only the function that adds a domain
// carries the list.

/** The longest name DNS carries, in its presentation form without the trailing dot. */
export const MAX_DOMAIN_NAME_LENGTH = 253;

/** A label as DNS hosts have it: letters, digits and hyphens, 1 to 63, no hyphen at either end. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Characters the URL host parser would read as something else (percent-escapes it decodes,
 * separators it stops at) or that no hostname has; refused before it sees the name.
 */
const NOT_IN_A_HOSTNAME = /[\s%/\\:@?#[\]<>^|"'`{}*_,;=+!$&()~]/u;

/** The label where ownership is proven: `_platform-challenge.<name>` holds the TXT record. */
export const CHALLENGE_LABEL = '_platform-challenge';

export type DomainName = { ok: true; name: string } | { ok: false; problem: string };

/**
 * The stored form of a name a client sent, or what is wrong with it (the message of a 400 naming
 * `name`). It does not consult the Public Suffix List.
 */
export function normaliseDomainName(input: string): DomainName {
  const refuse = (problem: string): DomainName => ({ ok: false, problem });
  if (input.includes('*')) return refuse('must not be a wildcard: name one host, such as www.example.com');
  const given = input.endsWith('.') ? input.slice(0, -1) : input;
  if (given.length === 0) return refuse('must not be empty');
  if (NOT_IN_A_HOSTNAME.test(given) || given.includes('..'))
    return refuse('must be a hostname: labels of letters, digits and hyphens, separated by dots');
  // The host parser reads a last label of digits (or 0x…) as part of an IPv4 address: no TLD is one.
  const last = given.split('.').at(-1) ?? '';
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/i.test(last)) return refuse('must be a hostname, not an IP address');
  const ascii = domainToASCII(given.toLowerCase());
  if (ascii === '') return refuse('is not a valid internationalised hostname');
  if (ascii.length > MAX_DOMAIN_NAME_LENGTH)
    return refuse(`must be at most ${MAX_DOMAIN_NAME_LENGTH} characters (as A-labels)`);
  const labels = ascii.split('.');
  if (labels.length < 2) return refuse('must have at least two labels, such as example.com');
  if (!labels.every((label) => LABEL.test(label)))
    return refuse(
      'must be a hostname: each label 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen',
    );
  // An A-label the URL parser cannot decode passes it unchanged: no Unicode name has it.
  if (labels.some((label) => label.startsWith('xn--') && domainToUnicode(label) === label))
    return refuse('is not a valid internationalised hostname');
  return { ok: true, name: ascii };
}

/** Where a domain's ownership record is looked up. */
export const challengeNameOf = (name: string): string => `${CHALLENGE_LABEL}.${name}`;

/**
 * The TXT value that proves `name` is meant for this project: a digest of both, so it differs from
 * one project to the next (a record set for one project never verifies another's claim of the same
 * name) and cannot be told from the name alone.
 */
export function challengeValueOf(projectId: string, name: string): string {
  const digest = createHash('sha256').update(`platform-domain\n${projectId}\n${name}`).digest('hex');
  return `platform-verification=${digest.slice(0, 40)}`;
}
